import { afterEach, describe, expect, test, vi } from "vitest";
import { Api } from "./api";
import { runCall, type CallsApp } from "./calls";
import type { Visitor } from "./types";

/** The frame's controller as the calls use it, its API over a fetch that answers `status` and records paths. */
function fakeApp(status = 200, meta: Record<string, string> = {}) {
  const requests: { method: string; path: string; body: unknown }[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string, init: RequestInit) => {
      requests.push({
        method: init.method ?? "GET",
        path: url.replace("/api/v2/messenger", ""),
        body: typeof init.body === "string" ? JSON.parse(init.body) : undefined,
      });
      const body = status < 300 ? { data: {} } : { meta: { status, ...meta } };
      return new Response(JSON.stringify(body), { status });
    }),
  );
  const emitted: [string, unknown][] = [];
  const loads: number[] = [];
  const app: CallsApp = {
    api: new Api("mk_test", () => Promise.reject(new Error("no reboot in these tests"))),
    visitor: {} as Visitor,
    reload: async () => undefined,
    emit: (name, data) => void emitted.push([name, data]),
    messages: { load: async () => void loads.push(1) },
  };
  return { app, requests, emitted, loads };
}

afterEach(() => vi.unstubAllGlobals());

describe("runCall", () => {
  test("trackMessageInteraction read: the send's read endpoint", async () => {
    const f = fakeApp();
    await runCall(f.app, "trackMessageInteraction", ["42", "read"]);
    expect(f.requests).toEqual([{ method: "POST", path: "/messages/42/read", body: undefined }]);
    expect(f.loads).toEqual([]);
  });

  test("trackMessageInteraction click: the click endpoint, then the visitor's messages again", async () => {
    const f = fakeApp();
    await runCall(f.app, "trackMessageInteraction", ["42", "click"]);
    expect(f.requests).toEqual([{ method: "POST", path: "/messages/42/click", body: {} }]);
    expect(f.loads).toEqual([1]);
  });

  test("trackMessageInteraction as the site calls it: carrotquest's names, a numeric ID", async () => {
    const f = fakeApp();
    await runCall(f.app, "trackMessageInteraction", [42, "read"]);
    await runCall(f.app, "trackMessageInteraction", [" 43 ", "clicked"]);
    expect(f.requests).toEqual([
      { method: "POST", path: "/messages/42/read", body: undefined },
      { method: "POST", path: "/messages/43/click", body: {} },
    ]);
  });

  test("trackMessageInteraction with a bad ID or type: refused (the site's warning), nothing sent", async () => {
    const f = fakeApp();
    await expect(runCall(f.app, "trackMessageInteraction", ["42", "replied"])).rejects.toThrow(
      "trackMessageInteraction: replied is not one of read, clicked",
    );
    await expect(runCall(f.app, "trackMessageInteraction", ["{{ sending_id }}", "read"])).rejects.toThrow(
      "is not a sending ID",
    );
    expect(f.requests).toEqual([]);
  });

  test("a refused auth reaches the site's callback, and the call still fails", async () => {
    const f = fakeApp(403, { error: "PermissionDenied", error_message: "user_hash does not match user_id." });
    await expect(runCall(f.app, "auth", ["u1", "forged"])).rejects.toThrow("user_hash does not match");
    expect(f.emitted).toEqual([
      [
        "auth_refused",
        {
          user_id: "u1",
          status: 403,
          error: "PermissionDenied",
          message: "user_hash does not match user_id.",
        },
      ],
    ]);
  });

  test("a server error is no refusal: no callback", async () => {
    const f = fakeApp(500);
    await expect(runCall(f.app, "auth", ["u1", "hash"])).rejects.toThrow();
    expect(f.emitted).toEqual([]);
  });
});
