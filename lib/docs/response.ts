import { exampleOf } from "./example";
import type { DocEndpoint } from "./reference";
import { fieldTree, topType, type FieldNode } from "./tree";

/** What an endpoint's success looks like: the envelope's example and `data`'s fields, or the file it answers. */
export type DocResponse =
  | { kind: "envelope"; dataType: string; fields: FieldNode[]; example: { data: unknown; meta: unknown } }
  | { kind: "file"; contentType: string };

export function responseOf(d: DocEndpoint): DocResponse {
  if (d.file || !d.dataSchema)
    return { kind: "file", contentType: d.file?.contentType ?? "application/octet-stream" };
  return {
    kind: "envelope",
    dataType: topType(d.dataSchema, d.components),
    fields: fieldTree(d.dataSchema, d.components),
    example: {
      data: exampleOf(d.dataSchema, d.components),
      meta: d.metaSchema ? exampleOf(d.metaSchema, d.components, "meta", true) : { status: 200 },
    },
  };
}
