import { describe, expect, it } from "vitest";
import { safeUrl } from "./safe-url";

describe("safeUrl", () => {
  it.each([
    ["https://cdn.example.com/a.png", "https://cdn.example.com/a.png"],
    ["http://example.com/x?y=1#z", "http://example.com/x?y=1#z"],
    ["  https://example.com/a b", "https://example.com/a%20b"],
  ])("keeps %s", (raw, want) => {
    expect(safeUrl(raw)).toBe(want);
  });

  it.each([
    "javascript:alert(1)",
    " JavaScript:alert(1)",
    "java\tscript:alert(1)",
    "jav&#x09;ascript:alert(1)",
    "data:image/svg+xml,<svg onload=alert(1)>",
    "data:text/html,<script>alert(1)</script>",
    "blob:https://example.com/uuid",
    "vbscript:msgbox(1)",
    "file:///etc/passwd",
    "//evil.example/x",
    "/api/attachments/1",
    "relative.png",
    "",
    undefined,
    42,
  ])("drops %s", (raw) => {
    expect(safeUrl(raw)).toBeUndefined();
  });

  it("keeps paths on this site only when asked", () => {
    expect(safeUrl("/api/attachments/1?signature=x", { sitePath: true })).toBe(
      "/api/attachments/1?signature=x",
    );
    expect(safeUrl("//evil.example/x", { sitePath: true })).toBeUndefined();
    expect(safeUrl("/\\evil.example/x", { sitePath: true })).toBeUndefined();
    expect(safeUrl("javascript:alert(1)", { sitePath: true })).toBeUndefined();
  });
});
