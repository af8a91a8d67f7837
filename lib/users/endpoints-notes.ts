import { z } from "zod";
import { bothVersions, endpoint, type VersionSpec } from "../api/endpoint";
import { p } from "../contract/zod";
import { addNote, deleteNote, listNotes, MAX_NOTE, serializeNote } from "./notes";
import { userRefParams } from "./resolve";
import { addUserTag, removeUserTag } from "./tags";
import { empty } from "../contract/schemas";
import { noteSchema, userTagsSchema } from "./schemas";

const refOnly = z.object(userRefParams);
const noteParams = z.object({ ...userRefParams, body: p.str({ min: 1, max: MAX_NOTE }) });
const noteRef = z.object({ ...userRefParams, note_id: p.id() });

export const getUserNotes = endpoint({
  method: "GET",
  path: "/users/{id}/notes",
  summary: "A user's notes, newest first",
  tags: ["Users"],
  scopes: ["user-read"],
  ...bothVersions({
    response: z.array(noteSchema),
    params: refOnly,
    handler: async (ctx, input) => ({ data: (await listNotes(ctx, { user: input })).map(serializeNote) }),
  }),
});

export const postUserNote = endpoint({
  method: "POST",
  path: "/users/{id}/notes",
  summary: "Add a note to a user (by the operator, or the app's default admin for tokens)",
  tags: ["Users"],
  scopes: ["user-write"],
  ...bothVersions({
    response: noteSchema,
    params: noteParams,
    handler: async (ctx, input) => ({
      data: serializeNote(await addNote(ctx, { user: input, body: input.body })),
    }),
  }),
});

export const deleteUserNote = endpoint({
  method: "DELETE",
  path: "/users/{id}/notes/{note_id}",
  summary: "Delete a note of a user",
  tags: ["Users"],
  scopes: ["user-write"],
  ...bothVersions({
    response: empty,
    params: noteRef,
    handler: async (ctx, input) => {
      await deleteNote(ctx, { user: input, noteId: input.note_id });
      return { data: {} };
    },
  }),
});

const tag = p
  .str({ min: 1, max: 255, trim: true })
  .refine((t) => !t.includes(","), { error: "must not contain a comma" });
const tagParams = z.object({ ...userRefParams, tag });

/** v2 answers with the user's tags after the change; v1 with an empty object. Both succeed when nothing changed. */
function tagVersions(change: typeof addUserTag) {
  const v1: VersionSpec<typeof tagParams> = {
    response: empty,
    params: tagParams,
    handler: async (ctx, input) => {
      await change(ctx, { user: input, tag: input.tag });
      return { data: {} };
    },
  };
  const v2: VersionSpec<typeof tagParams> = {
    response: userTagsSchema,
    params: tagParams,
    handler: async (ctx, input) => ({
      data: { tags: (await change(ctx, { user: input, tag: input.tag })).tags },
    }),
  };
  return { v1, v2 };
}

export const postUserTag = endpoint({
  method: "POST",
  path: "/users/{id}/tags",
  summary: "Add a tag to a user (200 also when present)",
  tags: ["Users"],
  scopes: ["user-write"],
  ...tagVersions(addUserTag),
});

export const deleteUserTag = endpoint({
  method: "DELETE",
  path: "/users/{id}/tags",
  summary: "Remove a tag from a user (200 also when absent)",
  tags: ["Users"],
  scopes: ["user-write"],
  ...tagVersions(removeUserTag),
});
