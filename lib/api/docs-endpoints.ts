import { z } from "zod";
import { endpoint } from "./endpoint";
import { openApiDocument } from "./openapi";
import { catalog } from "./catalog";

export const getOpenApi = endpoint({
  method: "GET",
  path: "/openapi.json",
  summary: "This document",
  tags: ["Meta"],
  auth: "none",
  ias: false,
  v1: { params: z.object({}), response: { contentType: "application/json" }, handler: async () => plain(1) },
  v2: { params: z.object({}), response: { contentType: "application/json" }, handler: async () => plain(2) },
});

async function plain(major: 1 | 2): Promise<Response> {
  return Response.json(openApiDocument([...catalog, getOpenApi], major));
}
