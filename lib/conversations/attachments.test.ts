import { describe, expect } from "vitest";
import type { TestServer } from "../testing/server";
import { it, type TestApp } from "../testing/fixture";
import { attachmentUrls } from "../attachments/sign";
import { eventsOf, fails, lastEventId, ok, startConversation, type Json } from "./testing";

const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.alloc(64, 7),
]);
const DOCX = Buffer.from(
  "PK\x03\x04\x14\x00\x00\x00[Content_Types].xml....PK\x03\x04word/document.xml<w:document/>",
  "latin1",
);

function form(
  fields: Record<string, string>,
  file?: { name: string; bytes: Buffer; field?: string; type?: string },
) {
  const fd = new FormData();
  for (const [k, v] of Object.entries(fields)) fd.set(k, v);
  if (file)
    fd.set(
      file.field ?? "attachment",
      new Blob([new Uint8Array(file.bytes)], { type: file.type ?? "application/octet-stream" }),
      file.name,
    );
  return fd;
}

const replyWith = (
  a: TestApp,
  id: bigint,
  fields: Record<string, string>,
  file?: Parameters<typeof form>[1],
) => a.api.postMultipart(`/api/conversations/${id}/reply`, form(fields, file));
const parts = (s: TestServer, id: bigint) => s.db.conversationPart.count({ where: { conversationId: id } });

describe("reply attachments", () => {
  it("stores a file and serves it through a signed link that needs no token", async ({
    server: s,
    app: a,
  }) => {
    const conv = await startConversation(a.api, s.db, a.app.id);
    const since = await lastEventId(s.db);
    const part = ok(await replyWith(a, conv.id, {}, { name: "screen.png", bytes: PNG, type: "text/plain" }));
    expect(part.body).toBe("");
    const [att] = part.attachments as Json[];
    expect(att).toMatchObject({
      type: "file",
      filename: "screen.png",
      mime_type: "image/png",
      size: PNG.length,
    });
    expect(typeof att!.created).toBe("number");
    const url = new URL(att!.url as string);
    expect(url.origin).toBe(s.url);
    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/png");
    expect(res.headers.get("content-disposition")).toMatch(/^inline/);
    expect(res.headers.get("cross-origin-resource-policy")).toBe("cross-origin");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(Buffer.from(await res.arrayBuffer()).equals(PNG)).toBe(true);
    // The event log holds links relative to the server unless PUBLIC_URL is configured.
    const [ev] = await eventsOf(s.db, `conversation_reply.${a.app.id}`, since);
    expect(((ev!.payload as Json).attachments as Json[])[0]!.url).toMatch(
      /^\/api\/attachments\/\d+\?expires=\d+&signature=[0-9a-f]{64}$/,
    );
    const got = ok(await a.api.get(`/api/conversations/${conv.id}`));
    expect(((got.part_last as Json).attachments as Json[])[0]!.id).toBe(att!.id);
  });

  it("refuses tampered, foreign and expired links", async ({ server: s, app: a }) => {
    const conv = await startConversation(a.api, s.db, a.app.id);
    const part = ok(await replyWith(a, conv.id, { body: "doc" }, { name: "spec.docx", bytes: DOCX }));
    const [att] = part.attachments as Json[];
    const url = new URL(att!.url as string);
    const tampered = new URL(url);
    tampered.searchParams.set("signature", "0".repeat(64));
    expect((await fetch(tampered)).status).toBe(403);
    const later = new URL(url);
    later.searchParams.set("expires", String(Number(url.searchParams.get("expires")) + 3600));
    expect((await fetch(later)).status).toBe(403);
    const other = new URL(url);
    other.pathname = `/api/attachments/${Number(att!.id) + 1000}`;
    expect((await fetch(other)).status).toBe(403);
    const old = await attachmentUrls(s.db, s.url, Date.now() - 8 * 24 * 3600 * 1000);
    const expired = await s.call(old(BigInt(att!.id as number)).replace(s.url, ""));
    fails(expired, 403, "PermissionDenied");
    expect(expired.body.meta.error_message).toMatch(/expired/);
    fails(await s.call(`/api/attachments/${String(att!.id)}`), 400, "ValidationError", "signature");
    const docx = await fetch(url);
    expect(docx.headers.get("content-disposition")).toMatch(/^attachment; filename\*=UTF-8''spec\.docx/);
  });

  it("checks the type by content, the name, and the size; a refused file writes nothing", async ({
    server: s,
    app: a,
  }) => {
    const conv = await startConversation(a.api, s.db, a.app.id);
    const named = ok(
      await replyWith(
        a,
        conv.id,
        { attachment_file_name: "Invoice March.pdf" },
        { name: "x.bin", bytes: Buffer.from("%PDF-1.7\n...") },
      ),
    );
    expect((named.attachments as Json[])[0]).toMatchObject({
      filename: "Invoice March.pdf",
      mime_type: "application/pdf",
    });
    const html = ok(
      await replyWith(a, conv.id, {}, { name: "page.html", bytes: Buffer.from("<h1>hi</h1>") }),
    );
    expect((html.attachments as Json[])[0]!.mime_type).toBe("text/html");
    const before = await parts(s, conv.id);
    const bad: [Record<string, string>, Parameters<typeof form>[1], string][] = [
      [{}, { name: "fake.png", bytes: Buffer.from("just text") }, "attachment"],
      [{}, { name: "tool.exe", bytes: Buffer.from("MZ\x90\x00", "latin1") }, "attachment"],
      [{}, { name: "noext", bytes: PNG }, "attachment"],
      [{}, { name: "notes.txt", bytes: Buffer.from([0x00, 0x01, 0x02]) }, "attachment"],
      [{}, { name: "empty.txt", bytes: Buffer.alloc(0) }, "attachment"],
      [{}, { name: "report.docx", bytes: Buffer.from("PK\x03\x04plain zip", "latin1") }, "attachment"],
      [
        { attachment_file_name: "a".repeat(252) + ".png" },
        { name: "a.png", bytes: PNG },
        "attachment_file_name",
      ],
      [{ attachment_file_name: "" }, { name: "a.png", bytes: PNG }, "attachment_file_name"],
      [{ attachment_file_name: "lonely.png", body: "x" }, undefined, "attachment_file_name"],
    ];
    for (const [fields, file, field] of bad)
      fails(await replyWith(a, conv.id, fields, file), 400, "ValidationError", field);
    fails(
      await a.api.postForm(`/api/conversations/${conv.id}/reply`, { attachment: "not a file" }),
      400,
      "ValidationError",
      "attachment",
    );
    const big = Buffer.alloc(10 * 1024 * 1024 + 1, 0x41);
    fails(await replyWith(a, conv.id, {}, { name: "big.txt", bytes: big }), 413, "PayloadTooLarge");
    fails(
      await replyWith(a, conv.id, {}, { name: "huge.txt", bytes: Buffer.alloc(11 * 1024 * 1024, 0x41) }),
      413,
      "PayloadTooLarge",
    );
    expect(await parts(s, conv.id)).toBe(before);
    expect(await s.db.attachment.count({ where: { part: { conversationId: conv.id } } })).toBe(2);
  });

  it("accepts a file of exactly 10 MB", async ({ server: s, app: a }) => {
    const conv = await startConversation(a.api, s.db, a.app.id);
    const part = ok(
      await replyWith(a, conv.id, {}, { name: "max.csv", bytes: Buffer.alloc(10 * 1024 * 1024, 0x2c) }),
    );
    expect((part.attachments as Json[])[0]).toMatchObject({ size: 10 * 1024 * 1024, mime_type: "text/csv" });
  });
});

describe("startconversation files", () => {
  it("takes file + filename, checked the same way", async ({ server: s, app: a }) => {
    const user = await s.db.user.create({ data: { appId: a.app.id } });
    const path = `/api/users/${user.id}/startconversation`;
    const d = ok(
      await a.api.postMultipart(
        path,
        form(
          { filename: "photo.jpg" },
          { field: "file", name: "blob", bytes: Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2]) },
        ),
      ),
    );
    expect(((d.part as Json).attachments as Json[])[0]).toMatchObject({
      filename: "photo.jpg",
      mime_type: "image/jpeg",
    });
    fails(
      await a.api.postMultipart(path, form({}, { field: "file", name: "photo.jpg", bytes: PNG })),
      400,
      "ValidationError",
      "filename",
    );
    fails(
      await a.api.postMultipart(
        path,
        form({ filename: "photo.png" }, { field: "file", name: "x", bytes: Buffer.from("GIF89a", "latin1") }),
      ),
      400,
      "ValidationError",
      "file",
    );
    fails(
      await a.api.postForm(path, { filename: "photo.png", body: "x" }),
      400,
      "ValidationError",
      "filename",
    );
    fails(
      await a.api.postMultipart(
        path,
        form(
          { filename: "big.txt" },
          { field: "file", name: "x", bytes: Buffer.alloc(10 * 1024 * 1024 + 1, 0x41) },
        ),
      ),
      413,
      "PayloadTooLarge",
    );
    expect(await s.db.conversation.count({ where: { userId: user.id } })).toBe(1);
  });
});
