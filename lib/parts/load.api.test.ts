import { describe, expect } from "vitest";
import { it } from "../testing/fixture";
import { makeAdmin } from "../testing/factories";
import { ok, startConversation } from "../conversations/testing";
import { sqlOf } from "../db/sql";
import { loadParts } from "./load";

describe("loadParts", () => {
  it("gives each part its operators and its attachments in order, in the order asked, once per ID", async ({
    server: s,
    app: a,
  }) => {
    const conv = await startConversation(a.api, s.db, a.app.id, "plain");
    const author = await makeAdmin(s.db, { name: "Author", appId: a.app.id });
    const assignee = await makeAdmin(s.db, { name: "Assignee", appId: a.app.id });
    const note = ok(await a.api.postForm(`/api/conversations/${conv.id}/reply`, { body: "two files" }));
    const noteId = BigInt(note.id as number);
    const first = (await s.db.conversationPart.findFirstOrThrow({ where: { conversationId: conv.id } })).id;
    await s.db.conversationPart.update({
      where: { id: noteId },
      data: { fromAdminId: author.id, assigneeId: assignee.id },
    });
    const file = (filename: string) => ({
      appId: a.app.id,
      partId: noteId,
      filename,
      mimeType: "text/plain",
      size: 3,
      data: Buffer.from("abc"),
    });
    const one = await s.db.attachment.create({ data: file("one.txt") });
    const two = await s.db.attachment.create({ data: file("two.txt") });

    const parts = await loadParts(sqlOf(s.db), [noteId, 0n, first, noteId]);
    expect(parts.map((p) => p.id)).toEqual([noteId, first, noteId]);
    const [withFiles, plain] = parts;
    expect(withFiles!.fromAdmin).toEqual({ id: author.id, name: "Author", avatar: "" });
    expect(withFiles!.assignee).toMatchObject({ id: assignee.id, name: "Assignee" });
    expect(withFiles!.attachments.map((x) => [x.id, x.partId, x.filename, x.size])).toEqual([
      [one.id, noteId, "one.txt", 3],
      [two.id, noteId, "two.txt", 3],
    ]);
    expect(withFiles!.attachments[0]!.created).toBeInstanceOf(Date);
    expect(withFiles!.body).toBe("two files");
    // No attachment or operator columns leak into the part.
    expect(
      Object.keys(withFiles!).filter((k) => /^att[A-Z]|^(fromAdmin|assignee)(Name|Avatar)$/.test(k)),
    ).toEqual([]);
    expect(plain!.fromAdmin).toBeNull();
    expect(plain!.assignee).toBeNull();
    expect(plain!.attachments).toEqual([]);
    expect(await loadParts(sqlOf(s.db), [])).toEqual([]);
  });
});
