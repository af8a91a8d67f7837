import type { Ctx } from "../auth/context";
import { lookupFailed } from "../domain/errors";
import { verifyAttachmentUrl } from "./sign";

/** An attachment's bytes for a signed link; the signature is the permission, so no token is involved. */
export async function getAttachmentFile(ctx: Ctx, input: { id: bigint; expires: number; signature: string }) {
  await verifyAttachmentUrl(ctx.db, input);
  const file = await ctx.db.attachment.findUnique({
    where: { id: input.id },
    select: { filename: true, mimeType: true, size: true, data: true, created: true },
  });
  if (!file) throw lookupFailed(`Attachment ${input.id} does not exist any more.`);
  return file;
}
