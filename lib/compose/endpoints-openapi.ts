import { z } from "zod";
import { endpoint, type Endpoint } from "../api/endpoint";
import { openApiDocument } from "../api/openapi";

/** The OpenAPI document of the endpoints `all` gives (the catalog, this one included, which it cannot import). */
export function openApiEndpoint(all: () => Endpoint[]): Endpoint {
  const plain = async (major: 1 | 2 | 3): Promise<Response> => Response.json(openApiDocument(all(), major));
  return endpoint({
    method: "GET",
    path: "/openapi.json",
    summary: "This document",
    tags: ["Meta"],
    auth: "none",
    ias: false,
    v1: { params: z.object({}), response: { contentType: "application/json" }, handler: () => plain(1) },
    v2: { params: z.object({}), response: { contentType: "application/json" }, handler: () => plain(2) },
    v3: { params: z.object({}), response: { contentType: "application/json" }, handler: () => plain(3) },
  });
}
