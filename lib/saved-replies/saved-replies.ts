import { Prisma } from "../db/generated/client";
import { invalid, lookupFailed } from "../domain/errors";
import { actingAdminId, assertApp, type Ctx } from "../auth/context";
import { SAVED_REPLY_BODY_MAX, SAVED_REPLY_TITLE_MAX, SHORTCUT_PATTERN } from "./schemas";

export interface SavedReplyRow {
  id: bigint;
  appId: bigint;
  shortcut: string;
  title: string;
  body: string;
  createdById: bigint | null;
  created: Date;
  updated: Date;
}

const select = {
  id: true,
  appId: true,
  shortcut: true,
  title: true,
  body: true,
  createdById: true,
  created: true,
  updated: true,
} as const;

const secondsOf = (d: Date) => Math.floor(d.getTime() / 1000);

export function serializeSavedReply(r: SavedReplyRow) {
  return {
    id: r.id,
    app: r.appId,
    shortcut: r.shortcut,
    title: r.title,
    body: r.body,
    created_by: r.createdById,
    created: secondsOf(r.created),
    updated: secondsOf(r.updated),
  };
}

interface Fields {
  shortcut?: string;
  title?: string;
  body?: string;
}

/**
 * Shortcuts are compared lowercased (`/Refund` and `/refund` would be one to the operator typing them); title and
 * body must not be blank. The edge already bounds lengths; this repeats them for callers that are not the API.
 */
function checked(input: Fields): Fields {
  const out: Fields = {};
  const problems: Record<string, string> = {};
  if (input.shortcut !== undefined) {
    out.shortcut = input.shortcut.trim().replace(/^\//, "").toLowerCase();
    if (!SHORTCUT_PATTERN.test(out.shortcut))
      problems.shortcut = "must be 1 to 32 characters: letters a-z, digits, _ and -";
  }
  if (input.title !== undefined) {
    out.title = input.title.trim();
    if (!out.title) problems.title = "must not be blank";
    else if (out.title.length > SAVED_REPLY_TITLE_MAX)
      problems.title = `must be at most ${SAVED_REPLY_TITLE_MAX} characters`;
  }
  if (input.body !== undefined) {
    out.body = input.body;
    if (!out.body.trim()) problems.body = "must not be blank";
    else if (out.body.length > SAVED_REPLY_BODY_MAX)
      problems.body = `must be at most ${SAVED_REPLY_BODY_MAX} characters`;
  }
  if (Object.keys(problems).length) throw invalid(problems);
  return out;
}

const missing = (id: bigint) => lookupFailed(`Saved reply ${id} does not exist in this app.`);
const taken = (shortcut: string) => invalid({ shortcut: `"/${shortcut}" is taken by another saved reply` });

/** The unique (app, shortcut) index is the arbiter: two concurrent writers of one shortcut, one wins. */
function isShortcutTaken(err: unknown): boolean {
  return err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2002";
}

export async function listSavedReplies(ctx: Ctx, input: { appId: bigint }): Promise<SavedReplyRow[]> {
  assertApp(ctx, input.appId);
  return ctx.db.savedReply.findMany({ where: { appId: input.appId }, select, orderBy: { shortcut: "asc" } });
}

export async function createSavedReply(
  ctx: Ctx,
  input: { appId: bigint; shortcut: string; title: string; body: string },
): Promise<SavedReplyRow> {
  assertApp(ctx, input.appId);
  const f = checked(input) as Required<Fields>;
  try {
    return await ctx.db.savedReply.create({
      data: {
        appId: input.appId,
        shortcut: f.shortcut,
        title: f.title,
        body: f.body,
        createdById: actingAdminId(ctx) ?? null,
      },
      select,
    });
  } catch (err) {
    if (isShortcutTaken(err)) throw taken(f.shortcut);
    throw err;
  }
}

export async function updateSavedReply(
  ctx: Ctx,
  input: { appId: bigint; replyId: bigint } & Fields,
): Promise<SavedReplyRow> {
  assertApp(ctx, input.appId);
  const f = checked(input);
  let row: SavedReplyRow | undefined;
  try {
    // A concurrent delete leaves nothing to update: the same LookupError as a reply that never was.
    [row] = await ctx.db.savedReply.updateManyAndReturn({
      where: { id: input.replyId, appId: input.appId },
      data: f,
      select,
    });
  } catch (err) {
    if (isShortcutTaken(err) && f.shortcut) throw taken(f.shortcut);
    throw err;
  }
  if (!row) throw missing(input.replyId);
  return row;
}

export async function deleteSavedReply(ctx: Ctx, input: { appId: bigint; replyId: bigint }): Promise<void> {
  assertApp(ctx, input.appId);
  const gone = await ctx.db.savedReply.deleteMany({ where: { id: input.replyId, appId: input.appId } });
  if (gone.count === 0) throw missing(input.replyId);
}
