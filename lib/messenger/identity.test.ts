import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { isOriginAllowed, userHashOf, verifyUserHash } from "./identity";
import { normalizeOrigin } from "./origins";

const secret = "a".repeat(64);

describe("verifyUserHash", () => {
  const good = crypto.createHmac("sha256", secret).update("user-42").digest("hex");

  it("accepts the hex HMAC-SHA256 of the user ID, in either case", () => {
    expect(userHashOf(secret, "user-42")).toBe(good);
    expect(verifyUserHash(secret, "user-42", good)).toBe(true);
    expect(verifyUserHash(secret, "user-42", good.toUpperCase())).toBe(true);
  });

  it("refuses another user's hash, another secret's and a flipped digit", () => {
    expect(verifyUserHash(secret, "user-43", good)).toBe(false);
    expect(verifyUserHash("b".repeat(64), "user-42", good)).toBe(false);
    const flipped = (good[0] === "0" ? "1" : "0") + good.slice(1);
    expect(verifyUserHash(secret, "user-42", flipped)).toBe(false);
  });

  it("is false, not an exception, for malformed hashes", () => {
    for (const bad of [
      "",
      "zz",
      good.slice(0, 63),
      `${good}0`,
      `${good.slice(0, 62)}g0`,
      ` ${good.slice(1)}`,
    ])
      expect(verifyUserHash(secret, "user-42", bad)).toBe(false);
  });

  it("hashes the user ID as UTF-8", () => {
    const h = crypto.createHmac("sha256", secret).update(Buffer.from("Zoë", "utf8")).digest("hex");
    expect(verifyUserHash(secret, "Zoë", h)).toBe(true);
  });
});

describe("normalizeOrigin", () => {
  it("lowercases and drops the scheme's default port and a trailing slash", () => {
    expect(normalizeOrigin("HTTPS://Shop.Example.COM/")).toBe("https://shop.example.com");
    expect(normalizeOrigin("https://example.com:443")).toBe("https://example.com");
    expect(normalizeOrigin("http://example.com:80")).toBe("http://example.com");
    expect(normalizeOrigin(" http://localhost:3000 ")).toBe("http://localhost:3000");
    expect(normalizeOrigin("http://[::1]:8080")).toBe("http://[::1]:8080");
  });

  it("refuses what is not an origin", () => {
    for (const bad of [
      "example.com",
      "example.com:80",
      "ftp://example.com",
      "https://example.com/path",
      "https://example.com?q=1",
      "https://user:pw@example.com",
      "https://",
      "https:/example.com",
      "javascript:alert(1)",
      "null",
      "",
    ])
      expect(normalizeOrigin(bad), bad).toBeUndefined();
  });
});

describe("isOriginAllowed", () => {
  it("allows every origin when none are listed", () => {
    expect(isOriginAllowed({ allowedOrigins: [] }, "https://anything.test")).toBe(true);
  });

  it("allows only listed origins, compared normalized", () => {
    const s = { allowedOrigins: ["https://shop.example.com", "http://localhost:3000"] };
    expect(isOriginAllowed(s, "https://shop.example.com")).toBe(true);
    expect(isOriginAllowed(s, "https://SHOP.example.com:443")).toBe(true);
    expect(isOriginAllowed(s, "http://localhost:3000")).toBe(true);
    expect(isOriginAllowed(s, "http://shop.example.com")).toBe(false);
    expect(isOriginAllowed(s, "https://evil.example.com")).toBe(false);
    expect(isOriginAllowed(s, "https://shop.example.com.evil.test")).toBe(false);
    expect(isOriginAllowed(s, "null")).toBe(false);
  });
});
