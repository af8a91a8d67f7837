import { describe, expect, it } from "vitest";
import {
  denied,
  internal,
  invalid,
  lookupFailed,
  throttled,
  tooBig,
  tooLarge,
  wrongCredentials,
  type DomainError,
  type DomainErrorKind,
} from "../domain/errors";
import { errorBody } from "./envelope";
import { ApiError, toApiError, validation } from "./errors";

const answer = (err: unknown) => {
  const e = toApiError(err, "req1");
  return { status: e.status, meta: errorBody(e, "req1").meta, headers: e.headers };
};

describe("toApiError", () => {
  // A Record over every kind: a kind added without a case here does not compile.
  const cases: Record<DomainErrorKind, [DomainError, ReturnType<typeof answer>]> = {
    invalid: [
      invalid({ name: "must not be empty", tag: "is too long" }),
      {
        status: 400,
        meta: {
          status: 400,
          error: "ValidationError",
          error_message: "Invalid parameters: name, tag.",
          error_fields: { name: "must not be empty", tag: "is too long" },
          request_id: "req1",
        },
        headers: undefined,
      },
    ],
    too_big: [
      tooBig("The message is too long.", { body: "must be at most 5 characters" }),
      {
        status: 400,
        meta: {
          status: 400,
          error: "ReplyTooBig",
          error_message: "The message is too long.",
          error_fields: { body: "must be at most 5 characters" },
          request_id: "req1",
        },
        headers: undefined,
      },
    ],
    lookup: [
      lookupFailed("User 7 does not exist."),
      {
        status: 400,
        meta: {
          status: 400,
          error: "LookupError",
          error_message: "User 7 does not exist.",
          request_id: "req1",
        },
        headers: undefined,
      },
    ],
    denied: [
      denied(),
      {
        status: 403,
        meta: {
          status: 403,
          error: "PermissionDenied",
          error_message: "You have no access to this object.",
          request_id: "req1",
        },
        headers: undefined,
      },
    ],
    wrong_credentials: [
      wrongCredentials("Wrong email or password."),
      {
        status: 401,
        meta: {
          status: 401,
          error: "AuthenticationFailed",
          error_message: "Wrong email or password.",
          request_id: "req1",
        },
        // Not a missing token: no scheme to offer, so no WWW-Authenticate (as the login answered before).
        headers: undefined,
      },
    ],
    throttled: [
      throttled("Too many failed logins: try again later.", 42),
      {
        status: 429,
        meta: {
          status: 429,
          error: "Throttled",
          error_message: "Too many failed logins: try again later.",
          request_id: "req1",
        },
        headers: { "Retry-After": "42" },
      },
    ],
    too_large: [
      tooLarge("The file is over the limit of 10 MB.", { file: "is larger than 10 MB" }),
      {
        status: 413,
        meta: {
          status: 413,
          error: "PayloadTooLarge",
          error_message: "The file is over the limit of 10 MB.",
          error_fields: { file: "is larger than 10 MB" },
          request_id: "req1",
        },
        headers: undefined,
      },
    ],
    internal: [
      internal("The test delivery was not queued."),
      {
        status: 500,
        meta: {
          status: 500,
          error: "InternalError",
          error_message: "The test delivery was not queued.",
          request_id: "req1",
        },
        headers: undefined,
      },
    ],
  };

  for (const [kind, [err, expected]] of Object.entries(cases)) {
    it(`maps ${kind}`, () => {
      expect(err.kind).toBe(kind);
      expect(answer(err)).toEqual(expected);
    });
  }

  it("maps a copy of the class from another bundle by its shape", () => {
    const copy = Object.assign(new Error("No webhook 3 in this app."), {
      name: "DomainError",
      kind: "lookup",
    });
    expect(answer(copy).meta.error).toBe("LookupError");
  });

  it("passes ApiErrors through, answers an unreachable database 503 and anything else 500", () => {
    const api = validation({ q: "is bad" });
    expect(toApiError(api, "req1")).toBe(api);
    const down = toApiError(Object.assign(new Error("gone"), { code: "ECONNREFUSED" }), "req1");
    expect([down.status, down.errorName, down.headers]).toEqual([
      503,
      "ServiceUnavailable",
      { "Retry-After": "5" },
    ]);
    const bug = toApiError(new TypeError("x is undefined"), "req1");
    expect(bug).toBeInstanceOf(ApiError);
    expect([bug.status, bug.message]).toEqual([500, "Something went wrong on our side (request req1)."]);
  });
});

describe("toApiError of a conflict that outlasted its retries", () => {
  it("is a 503 to retry after a second, raw or wrapped by Prisma's driver adapter", () => {
    const wrapped = { code: "P2010", meta: { driverAdapterError: { cause: { originalCode: "40P01" } } } };
    for (const err of [{ code: "40P01" }, { code: "40001" }, wrapped])
      expect(answer(err), JSON.stringify(err)).toMatchObject({
        status: 503,
        meta: { error: "ServiceUnavailable" },
        headers: { "Retry-After": "1" },
      });
  });
});
