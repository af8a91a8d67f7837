import { describe, expect, it } from "vitest";
import { searchEntries } from "./navigation";
import { DEFAULT_VERSION } from "./reference";
import { searchFor } from "./search";

describe("the reference's search", () => {
  const entries = searchEntries(DEFAULT_VERSION);

  it("puts the resource first, so Enter on its name opens its page", () => {
    const [first] = searchFor(entries, "conversations");
    expect(first).toMatchObject({ kind: "resource", title: "Conversations", href: "/docs/v2/conversations" });
  });

  it("finds endpoints by summary and path, every word", () => {
    const hits = searchFor(entries, "reply conversations/{id}");
    expect(hits.map((h) => h.href)).toContain("/docs/v2/conversations#post-conversations-id-reply");
    expect(hits.every((h) => h.kind === "endpoint")).toBe(true);
  });

  it("finds nothing for an empty query or a word nowhere", () => {
    expect(searchFor(entries, "  ")).toEqual([]);
    expect(searchFor(entries, "zzqx")).toEqual([]);
  });
});
