import { isDomainError, type DomainError, type DomainErrorKind } from "../domain/errors";
import { isRetryableConflict } from "../db/conflicts";
import { anyLayer } from "../db/error-layers";

/** The API's error: what the envelope says. Services throw DomainErrors (lib/domain/errors.ts); toApiError maps. */
export type ErrorName =
  | "ValidationError"
  | "ReplyTooBig"
  | "LookupError"
  | "AuthenticationFailed"
  | "PermissionDenied"
  | "NotFound"
  | "MethodNotAllowed"
  | "PayloadTooLarge"
  | "Throttled"
  | "InternalError"
  | "ServiceUnavailable";

export const ERROR_STATUS: Record<ErrorName, number> = {
  ValidationError: 400,
  ReplyTooBig: 400,
  LookupError: 400,
  AuthenticationFailed: 401,
  PermissionDenied: 403,
  NotFound: 404,
  MethodNotAllowed: 405,
  PayloadTooLarge: 413,
  Throttled: 429,
  InternalError: 500,
  ServiceUnavailable: 503,
};

export class ApiError extends Error {
  readonly status: number;
  constructor(
    readonly errorName: ErrorName,
    message: string,
    readonly fields?: Record<string, string>,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = "ApiError";
    this.status = ERROR_STATUS[errorName];
  }
}

export const validation = (fields: Record<string, string>, message?: string) =>
  new ApiError(
    "ValidationError",
    message ?? `Invalid parameters: ${Object.keys(fields).join(", ")}.`,
    fields,
  );
export const lookup = (message: string) => new ApiError("LookupError", message);
export const denied = (message = "You have no access to this object.") =>
  new ApiError("PermissionDenied", message);
export const unauthenticated = (message = "Authentication token is missing, unknown or revoked.") =>
  new ApiError("AuthenticationFailed", message, undefined, { "WWW-Authenticate": 'Token realm="api"' });

export function isApiError(e: unknown): e is ApiError {
  // Route bundles may carry their own copy of this class, so the check is structural.
  return e instanceof Error && e.name === "ApiError" && typeof (e as ApiError).errorName === "string";
}

/** How long a client is told to wait when the database is unreachable: about what a restart takes. */
export const UNAVAILABLE_RETRY_AFTER_S = 5;

export const unavailable = () =>
  new ApiError(
    "ServiceUnavailable",
    "The database is unreachable for the moment: retry shortly.",
    undefined,
    { "Retry-After": String(UNAVAILABLE_RETRY_AFTER_S) },
  );

const ERROR_NAME: Record<DomainErrorKind, ErrorName> = {
  invalid: "ValidationError",
  too_big: "ReplyTooBig",
  lookup: "LookupError",
  denied: "PermissionDenied",
  wrong_credentials: "AuthenticationFailed",
  throttled: "Throttled",
  too_large: "PayloadTooLarge",
  internal: "InternalError",
};

function fromDomain(e: DomainError): ApiError {
  const headers =
    e.retryAfterSeconds !== undefined ? { "Retry-After": String(e.retryAfterSeconds) } : undefined;
  return new ApiError(ERROR_NAME[e.kind], e.message, e.fields, headers);
}

/**
 * The one mapping of whatever an API handler or a socket handler threw to what the client is told: ApiErrors as
 * they are, services' DomainErrors by kind, an unreachable database as 503, anything else as a fault of ours.
 */
export function toApiError(err: unknown, requestId: string): ApiError {
  if (isApiError(err)) return err;
  if (isDomainError(err)) return fromDomain(err);
  if (isDatabaseUnreachable(err)) return unavailable();
  // Still conflicting after its retries (withEvents): nothing was written, and the same request can be sent again.
  if (isRetryableConflict(err))
    return new ApiError(
      "ServiceUnavailable",
      "The change conflicted with concurrent changes and was not made: retry it.",
      undefined,
      { "Retry-After": "1" },
    );
  return new ApiError("InternalError", `Something went wrong on our side (request ${requestId}).`);
}

/** Connection-level failures: the server is down, restarting, or dropped the connection (SQLSTATE class 08). */
const UNREACHABLE_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "57P01", // admin_shutdown
  "57P02", // crash_shutdown
  "57P03", // cannot_connect_now (starting up, shutting down)
  "P1001", // Prisma: can't reach the database server
  "P1002", // Prisma: the server timed out
  "P1017", // Prisma: the server closed the connection
]);
const UNREACHABLE_KINDS = new Set(["DatabaseNotReachable", "ConnectionClosed", "SocketTimeout"]);
const UNREACHABLE_MESSAGE =
  /^(Connection terminated|Client has encountered a connection error|Can't reach database server)/;

/**
 * Whether an error says the database could not be reached, whichever layer it comes through: the pg driver
 * (an errno or a SQLSTATE), Prisma (its P1xxx codes), or Prisma's driver adapter, which wraps the driver's error
 * as `meta.driverAdapterError.cause` under a P2010 or a model call's code.
 */
export function isDatabaseUnreachable(err: unknown): boolean {
  return anyLayer(
    err,
    (e) =>
      [e.code, e.originalCode].some(
        (code) => typeof code === "string" && (UNREACHABLE_CODES.has(code) || /^08[0-9A-Z]{3}$/.test(code)),
      ) ||
      (typeof e.kind === "string" && UNREACHABLE_KINDS.has(e.kind)) ||
      (typeof e.message === "string" && UNREACHABLE_MESSAGE.test(e.message)),
  );
}
