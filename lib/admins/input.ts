import { DomainError } from "../domain/errors";

/**
 * Bad input to an admin's or an app's details, told in one sentence: the message of the API's ValidationError
 * as well as of its one field, and what the CLI prints.
 */
export class InputError extends DomainError {
  constructor(
    message: string,
    readonly field: string,
  ) {
    super("invalid", message, { fields: { [field]: message } });
  }
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const PASSWORD_MIN = 8;
// scrypt hashes anything, but an unbounded password is a cheap way to burn CPU.
const PASSWORD_MAX = 1024;
export const NAME_MAX = 255;

/** Emails are compared lowercased: the same person must not get two accounts by typing a capital. */
export function cleanEmail(value: string, field = "email"): string {
  const email = value.trim().toLowerCase();
  if (email.length === 0) throw new InputError("Email is required.", field);
  if (email.length > 254 || !EMAIL.test(email))
    throw new InputError(`"${value}" is not a valid email address.`, field);
  return email;
}

export function checkPassword(value: string, field = "password"): string {
  if (value.length < PASSWORD_MIN) {
    throw new InputError(`The password must be at least ${PASSWORD_MIN} characters long.`, field);
  }
  if (value.length > PASSWORD_MAX) {
    throw new InputError(`The password must be at most ${PASSWORD_MAX} characters long.`, field);
  }
  return value;
}

/** A display name; when none is given, `fallback` stands in. */
export function cleanName(value: string | undefined, field: string, fallback?: string): string {
  const name = (value ?? "").trim() || (fallback ?? "");
  if (name.length === 0) throw new InputError(`The ${field} must not be empty.`, field);
  if (name.length > NAME_MAX)
    throw new InputError(`The ${field} must be at most ${NAME_MAX} characters long.`, field);
  return name;
}

/** "ann.lee@example.com" → "ann.lee": a readable default name for an operator. */
export function nameFromEmail(email: string): string {
  return email.split("@")[0] ?? email;
}
