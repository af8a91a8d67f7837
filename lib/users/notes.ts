import { lookupFailed } from "../domain/errors";
import { actingAdminId, type Ctx } from "../auth/context";
import { findUserId, type UserRef } from "./resolve";

export const MAX_NOTE = 10_000;
/** A user card shows recent notes; older ones beyond this are not listed. */
export const NOTES_LISTED = 500;

export interface NoteRow {
  id: bigint;
  appId: bigint;
  userId: bigint;
  body: string;
  created: Date;
  admin: { id: bigint; name: string; avatar: string } | null;
}

const select = {
  id: true,
  appId: true,
  userId: true,
  body: true,
  created: true,
  admin: { select: { id: true, name: true, avatar: true } },
} as const;

/** A note: who wrote it (an actor, or null once the operator is gone), when, and its text. */
export function serializeNote(n: NoteRow) {
  return {
    id: n.id,
    app: n.appId,
    user: n.userId,
    body: n.body,
    created: Math.floor(n.created.getTime() / 1000),
    admin: n.admin ? { id: n.admin.id, name: n.admin.name, avatar: n.admin.avatar, type: "admin" } : null,
  };
}

export async function notesOf(ctx: Ctx, userId: bigint): Promise<NoteRow[]> {
  return ctx.db.userNote.findMany({ where: { userId }, select, orderBy: { id: "desc" }, take: NOTES_LISTED });
}

export async function listNotes(ctx: Ctx, input: { user: UserRef }): Promise<NoteRow[]> {
  const u = await findUserId(ctx, input.user);
  return notesOf(ctx, u.id);
}

/** Written by the operator behind the session, or by the app's default admin for API tokens. */
export async function addNote(ctx: Ctx, input: { user: UserRef; body: string }): Promise<NoteRow> {
  const u = await findUserId(ctx, input.user);
  let adminId = actingAdminId(ctx);
  if (adminId === undefined) {
    const app = await ctx.db.app.findUnique({ where: { id: u.appId }, select: { defaultAdminId: true } });
    adminId = app?.defaultAdminId ?? undefined;
  }
  return ctx.db.userNote.create({
    data: { appId: u.appId, userId: u.id, adminId: adminId ?? null, body: input.body },
    select,
  });
}

export async function deleteNote(ctx: Ctx, input: { user: UserRef; noteId: bigint }): Promise<void> {
  const u = await findUserId(ctx, input.user);
  const res = await ctx.db.userNote.deleteMany({ where: { id: input.noteId, userId: u.id } });
  if (res.count === 0) throw lookupFailed(`Note ${input.noteId} of user ${u.id} does not exist.`);
}
