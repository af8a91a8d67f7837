import { describe, expect, it } from "vitest";
import { userAvatarUrl } from "./user-avatar";

const URL_ = "https://cdn.example.com/a.png";
const at = "2026-12-01T10:00:00";

describe("userAvatarUrl", () => {
  it("loads an avatar the site set through the API or an import", () => {
    expect(userAvatarUrl({ $avatar: URL_ }, { $avatar: { type: "api", id: null, at } })).toBe(URL_);
    expect(userAvatarUrl({ $avatar: URL_ }, { $avatar: { type: "import", id: null, at } })).toBe(URL_);
    expect(userAvatarUrl({ $avatar: URL_ }, { $avatar: { type: "popup", id: 7, at } })).toBe(URL_);
  });

  it("never loads one from the messenger, nor one stored without a source", () => {
    expect(
      userAvatarUrl({ $avatar: URL_ }, { $avatar: { type: "messenger", id: null, at } }),
    ).toBeUndefined();
    expect(userAvatarUrl({ $avatar: URL_ }, { $avatar: { type: "messenger.form" } })).toBeUndefined();
    // Stored when a visitor could set its own: nothing tells it from the site's.
    expect(userAvatarUrl({ $avatar: URL_ }, {})).toBeUndefined();
    expect(userAvatarUrl({ $avatar: URL_ }, { $email: { type: "api" } })).toBeUndefined();
    expect(userAvatarUrl({ $avatar: URL_ }, undefined)).toBeUndefined();
    expect(userAvatarUrl({ $avatar: URL_ }, { $avatar: { type: 3 } })).toBeUndefined();
  });

  it("keeps refusing what is not an http(s) URL", () => {
    expect(userAvatarUrl({ $avatar: "javascript:alert(1)" }, { $avatar: { type: "api" } })).toBeUndefined();
    expect(userAvatarUrl({}, { $avatar: { type: "api" } })).toBeUndefined();
  });
});
