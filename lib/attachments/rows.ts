import { Prisma } from "../db/generated/client";

type AttachmentColumns = {
  id: true;
  partId: true;
  type: true;
  filename: true;
  mimeType: true;
  size: true;
  created: true;
};

/** An attachment's row without its bytes, which stay in the database. */
export type AttachmentRow = Prisma.AttachmentGetPayload<{ select: AttachmentColumns }>;

/** AttachmentColumns as raw SQL over `attachments a`. */
export const ATTACHMENT_SQL = Prisma.sql`a.id, a.part_id AS "partId", a.type, a.filename,
  a.mime_type AS "mimeType", a.size, a.created`;
