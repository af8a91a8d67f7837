/**
 * What services throw when they refuse: a kind and the words for it, free of HTTP, so that the CLI, the socket
 * handlers and the API can all call them. The API edge maps each kind to a status and an envelope in one place
 * (toApiError, beside the API's own error type).
 */
export type DomainErrorKind =
  /** Bad input: per-field problems. */
  | "invalid"
  /** A message body over the length limit (its own error name in the API). */
  | "too_big"
  /** An ID or name that names nothing in this app. */
  | "lookup"
  /** The actor may not do this. */
  | "denied"
  /** A wrong email or password: unlike a missing token, no authentication scheme to offer. */
  | "wrong_credentials"
  /** Too many attempts: try again after `retryAfterSeconds`. */
  | "throttled"
  /** An uploaded file over its size limit. */
  | "too_large"
  /** A fault of ours the service noticed itself. */
  | "internal";

export interface DomainErrorDetails {
  /** Problems by input field name; for "invalid" and "too_big", optional for "too_large". */
  fields?: Record<string, string>;
  /** For "throttled". */
  retryAfterSeconds?: number;
}

export class DomainError extends Error {
  readonly fields?: Record<string, string>;
  readonly retryAfterSeconds?: number;
  constructor(
    readonly kind: DomainErrorKind,
    message: string,
    details: DomainErrorDetails = {},
  ) {
    super(message);
    // Subclasses keep this name: isDomainError goes by it.
    this.name = "DomainError";
    if (details.fields) this.fields = details.fields;
    if (details.retryAfterSeconds !== undefined) this.retryAfterSeconds = details.retryAfterSeconds;
  }
}

export function isDomainError(e: unknown): e is DomainError {
  // Route bundles may carry their own copy of this class, so the check is structural.
  return e instanceof Error && e.name === "DomainError" && typeof (e as DomainError).kind === "string";
}

export const invalid = (fields: Record<string, string>, message?: string) =>
  new DomainError("invalid", message ?? `Invalid parameters: ${Object.keys(fields).join(", ")}.`, { fields });
export const tooBig = (message: string, fields: Record<string, string>) =>
  new DomainError("too_big", message, { fields });
export const lookupFailed = (message: string) => new DomainError("lookup", message);
export const denied = (message = "You have no access to this object.") => new DomainError("denied", message);
export const wrongCredentials = (message: string) => new DomainError("wrong_credentials", message);
export const throttled = (message: string, retryAfterSeconds: number) =>
  new DomainError("throttled", message, { retryAfterSeconds });
export const tooLarge = (message: string, fields?: Record<string, string>) =>
  new DomainError("too_large", message, fields ? { fields } : {});
export const internal = (message: string) => new DomainError("internal", message);
