import type { Queryable } from "../db/sql";
import { invalid, tooLarge } from "../domain/errors";
import { checkFile } from "./sniff";
import { ATTACHMENT_SQL, type AttachmentRow } from "../parts/load";

export const MAX_ATTACHMENT_BYTES = 10 * 1024 * 1024;
/** Request body limit for endpoints taking a file: the file plus multipart framing and the other parameters. */
export const UPLOAD_BODY_LIMIT = MAX_ATTACHMENT_BYTES + 256 * 1024;

export interface Upload {
  filename: string;
  mimeType: string;
  size: number;
  data: Uint8Array<ArrayBuffer>;
}

/**
 * Reads and checks an uploaded file before any transaction starts, so a rejected file writes nothing. `fields`
 * names the request's parameters (`attachment`/`attachment_file_name`, or `file`/`filename`) for error_fields.
 */
export async function readUpload(
  file: File,
  name: string | undefined,
  fields: { file: string; name: string },
): Promise<Upload> {
  if (file.size > MAX_ATTACHMENT_BYTES) {
    throw tooLarge(`The file is over the limit of ${MAX_ATTACHMENT_BYTES / 1024 / 1024} MB.`, {
      [fields.file]: "is larger than 10 MB",
    });
  }
  const filename = (name ?? file.name).trim();
  if (!filename) throw invalid({ [fields.name]: "is required with a file" });
  if (filename.length > 255) throw invalid({ [fields.name]: "must be at most 255 characters" });
  if (filename.includes("\u0000")) throw invalid({ [fields.name]: "must not contain NUL characters" });
  const data = new Uint8Array(await file.arrayBuffer());
  const checked = checkFile(filename, data);
  if (!checked.ok) throw invalid({ [fields.file]: checked.reason });
  return { filename, mimeType: checked.mime, size: data.byteLength, data };
}

export async function storeAttachment(
  tx: Queryable,
  input: { appId: bigint; partId: bigint; upload: Upload },
): Promise<AttachmentRow> {
  const { filename, mimeType, size, data } = input.upload;
  const [row] = await tx.$queryRaw<AttachmentRow[]>`
    INSERT INTO attachments AS a (app_id, part_id, filename, mime_type, size, data)
    VALUES (${input.appId}, ${input.partId}, ${filename}, ${mimeType}, ${size}, ${data})
    RETURNING ${ATTACHMENT_SQL}`;
  return row!;
}
