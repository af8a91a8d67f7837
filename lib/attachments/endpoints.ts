import { z } from "zod";
import { endpoint } from "../api/endpoint";
import { p } from "../contract/zod";
import { getAttachmentFile } from "./serve";

const params = z.object({
  id: p.id(),
  expires: p.int({ min: 0 }),
  signature: p.str({ min: 1, max: 128 }),
});

type File = Awaited<ReturnType<typeof getAttachmentFile>>;

function fileResponse(file: File, expires: number): Response {
  const image = file.mimeType.startsWith("image/");
  // Images display inline (<img>); everything else downloads, so an uploaded HTML file never runs on our origin.
  const disposition = `${image ? "inline" : "attachment"}; filename*=UTF-8''${encodeURIComponent(file.filename)}`;
  const maxAge = Math.max(0, expires - Math.floor(Date.now() / 1000));
  return new Response(new Uint8Array(file.data), {
    status: 200,
    headers: {
      "Content-Type": file.mimeType,
      "Content-Length": String(file.size),
      "Content-Disposition": disposition,
      "Cache-Control": `private, max-age=${maxAge}, immutable`,
      "X-Content-Type-Options": "nosniff",
      "Content-Security-Policy": "default-src 'none'; sandbox",
      "Cross-Origin-Resource-Policy": "cross-origin",
    },
  });
}

const version = {
  response: { contentType: "*/*" },
  params,
  handler: async (ctx: Parameters<typeof getAttachmentFile>[0], input: z.output<typeof params>) =>
    fileResponse(await getAttachmentFile(ctx, input), input.expires),
};

export const getAttachment = endpoint({
  method: "GET",
  path: "/attachments/{id}",
  summary: "Download an attachment through its signed, expiring link (no token needed)",
  tags: ["Conversations"],
  auth: "none",
  ias: false,
  v1: version,
  v2: version,
});
