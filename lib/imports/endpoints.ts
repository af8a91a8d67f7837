import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { z } from "zod";
import { endpoint, type VersionSpec } from "../api/endpoint";
import { ApiError, validation } from "../api/errors";
import { p, zodFields } from "../contract/zod";
import { assertApp, requireAppId } from "../auth/context";
import { getImportJob, MAX_IMPORT_BYTES, serializeImportJob, startImport } from "./jobs";
import { chunksOf, spoolMultipart, spoolRaw, type Spooled } from "../api/spool";
import { importJobSchema } from "./schemas";
import type { ApiRequest } from "../api/api-request";

const DELIMITERS = [",", ";", "\t", "|", "tab"] as const;
const tag = p
  .str({ min: 1, max: 255, trim: true })
  .refine((t) => !t.includes(","), { error: "must not contain a comma" });

/** Parameters may come in the query string or as multipart fields beside the file. */
const importParams = z.object({
  app: p.appId().optional(),
  merge_field: p.oneOf(["$user_id", "$email"]),
  delimiter: p
    .oneOf(DELIMITERS)
    .optional()
    .meta({ description: 'one of , ; | and tab ("\\t" or "tab"); default ,' }),
  tags: p.list(tag, { max: 20 }).optional(),
});
const queryParams = importParams.partial();

/** Multipart framing and fields add a little to the file itself. */
const IMPORT_BODY_LIMIT = MAX_IMPORT_BYTES + 1024 * 1024;

/** The request body spooled to a temporary file: a multipart upload (field `file`) or a raw CSV body. */
async function receiveUpload(req: ApiRequest): Promise<Spooled> {
  const declared = Number(req.headers.get("content-length") ?? "NaN");
  if (Number.isFinite(declared) && declared > IMPORT_BODY_LIMIT) {
    throw new ApiError(
      "PayloadTooLarge",
      `The file is over the limit of ${MAX_IMPORT_BYTES / 1024 / 1024} MB.`,
    );
  }
  // Lowercased for matching only: the multipart boundary is case-sensitive and reaches the reader as sent.
  const rawType = req.headers.get("content-type") ?? "";
  const type = rawType.toLowerCase();
  const file = path.join(os.tmpdir(), `relay-import-${crypto.randomBytes(8).toString("hex")}.csv`);
  const opts = { path: file, maxFileBytes: MAX_IMPORT_BYTES };
  if (type.startsWith("multipart/form-data"))
    return spoolMultipart(chunksOf(req.body, IMPORT_BODY_LIMIT), rawType, opts);
  if (/^(text\/csv|text\/plain|application\/octet-stream)/.test(type)) {
    const raw = await spoolRaw(chunksOf(req.body, IMPORT_BODY_LIMIT), opts);
    return { fields: {}, file: { ...raw, filename: "upload.csv", field: "file" } };
  }
  throw validation({ file: "is required: send multipart/form-data with a `file` part, or a text/csv body" });
}

const start: VersionSpec<typeof queryParams>["handler"] = async (ctx, query, req) => {
  const appId = query.app ?? requireAppId(ctx);
  assertApp(ctx, appId);
  const upload = await receiveUpload(req);
  const cleanup = () => (upload.file ? fs.promises.rm(upload.file.path, { force: true }) : Promise.resolve());
  const parsed = importParams.safeParse({ ...query, ...upload.fields }, { reportInput: true });
  if (!parsed.success) {
    await cleanup();
    throw validation(zodFields(parsed.error));
  }
  if (!upload.file || upload.file.field !== "file") {
    await cleanup();
    throw validation({ file: "is required: a CSV file in the multipart field `file`" });
  }
  // `app` may also come as a multipart field beside the file: that is the app the caller names.
  const named = parsed.data.app ?? appId;
  if (named !== appId) {
    try {
      assertApp(ctx, named);
    } catch (err) {
      await cleanup();
      throw err;
    }
  }
  const d = parsed.data.delimiter;
  const job = await startImport(ctx, {
    appId: named,
    mergeField: parsed.data.merge_field,
    delimiter: d === undefined ? "," : d === "tab" ? "\t" : d,
    tags: parsed.data.tags ?? [],
    file: upload.file,
  });
  return { data: serializeImportJob(job) };
};

export const postUsersImport = endpoint({
  method: "POST",
  path: "/users/import",
  summary: "Import users from CSV (up to 30 MB), asynchronously: returns the job to follow",
  tags: ["Users"],
  scopes: ["user-write", "app-admin"],
  // The CSV is streamed to disk by the handler, never buffered whole; the server stops reading it past the limit.
  rawBody: true,
  bodyLimit: IMPORT_BODY_LIMIT,
  v1: { params: queryParams, response: importJobSchema, handler: start },
  v2: { params: queryParams, response: importJobSchema, handler: start },
});

const jobParams = z.object({ job_id: p.id() });

export const getUsersImport = endpoint({
  method: "GET",
  path: "/users/import/{job_id}",
  summary: "An import job: status, progress (bytes, rows) and row errors",
  tags: ["Users"],
  scopes: ["user-read", "app-admin"],
  v1: {
    response: importJobSchema,
    params: jobParams,
    handler: async (ctx, input) => ({
      data: serializeImportJob(await getImportJob(ctx, { jobId: input.job_id })),
    }),
  },
  v2: {
    response: importJobSchema,
    params: jobParams,
    handler: async (ctx, input) => ({
      data: serializeImportJob(await getImportJob(ctx, { jobId: input.job_id })),
    }),
  },
});
