/** The one error type services throw; the API edge maps it to the envelope once. */
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
  | "InternalError";

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
