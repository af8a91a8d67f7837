import { ERROR_STATUS, type ErrorName } from "../api/errors";
import { SESSION_ONLY_MESSAGE } from "../api/access";
import type { DocEndpoint } from "./reference";
import { paramsOf } from "./params";

/** An error an endpoint can answer, in the API's envelope (lib/api/envelope.ts errorBody). */
export interface DocError {
  name: ErrorName;
  status: number;
  when: string;
  example: { data: Record<string, never>; meta: Record<string, unknown> };
}

const REQUEST_ID = "5f2a9c1e04000001";

function error(name: ErrorName, when: string, message: string, fields?: Record<string, string>): DocError {
  return {
    name,
    status: ERROR_STATUS[name],
    when,
    example: {
      data: {},
      meta: {
        status: ERROR_STATUS[name],
        error: name,
        error_message: message,
        ...(fields ? { error_fields: fields } : {}),
        request_id: REQUEST_ID,
      },
    },
  };
}

/**
 * What the edge (endpoint() in lib/api/endpoint.ts) can answer for this endpoint, knowable from its spec alone:
 * validation when it takes parameters, the refusals of its auth mode, a lookup when its path names an object, a
 * body over the limit for writes, and the rate limit every request passes. Services may refuse in more ways (a
 * DomainError's kind, mapped by toApiError); those are the summary's to say.
 */
export function errorsOf(d: DocEndpoint): DocError[] {
  const out: DocError[] = [];
  const params = paramsOf(d).filter((p) => p.in !== "header");
  if (params.length) {
    const first = params.find((p) => p.required) ?? params[0]!;
    out.push(
      error(
        "ValidationError",
        "A parameter is missing or invalid: `error_fields` names each.",
        "Invalid parameters: " + first.name + ".",
        {
          [first.name]: first.required ? "is required" : "must be " + first.type,
        },
      ),
    );
  }
  if (/\{\w*id\}/.test(d.path)) {
    out.push(error("LookupError", "An ID in the path names nothing in this app.", "No such object."));
  }
  const tokenText = "Authentication token is missing, unknown or revoked.";
  switch (d.auth) {
    case "required":
      out.push(
        error("AuthenticationFailed", "No token or session, or an unknown or revoked one.", tokenText),
      );
      if (d.sessionOnly) {
        out.push(
          error(
            "PermissionDenied",
            "An API token was sent: only an operator's session may call this.",
            SESSION_ONLY_MESSAGE,
          ),
        );
        break;
      }
      out.push(
        error(
          "PermissionDenied",
          d.scopes.length
            ? `The token lacks a scope (${d.scopes.join(", ")}), or the object is another app's.`
            : "The object is another app's.",
          d.scopes.length
            ? `This token lacks the scope(s): ${d.scopes.join(", ")}.`
            : "You have no access to this object.",
        ),
      );
      break;
    case "optional":
      out.push(error("AuthenticationFailed", "A token was sent but is unknown or revoked.", tokenText));
      if (d.scopes.length)
        out.push(
          error(
            "PermissionDenied",
            `The token lacks a scope (${d.scopes.join(", ")}).`,
            `This token lacks the scope(s): ${d.scopes.join(", ")}.`,
          ),
        );
      break;
    case "visitor":
      out.push(
        error(
          "AuthenticationFailed",
          "No visitor access token, or an expired one.",
          "A visitor's access token is required.",
        ),
      );
      break;
    case "secret":
      out.push(
        error(
          "PermissionDenied",
          "The request's own credential is wrong or missing.",
          "Wrong or missing secret.",
        ),
      );
      break;
    case "none":
      break;
  }
  if (d.method !== "GET") {
    out.push(
      error(
        "PayloadTooLarge",
        "The body is over the endpoint's size limit.",
        "The request body is too large.",
      ),
    );
  }
  out.push(
    error(
      "Throttled",
      "Too many requests: wait for the `Retry-After` header's seconds.",
      "Too many requests: slow down.",
    ),
  );
  return out.sort((a, b) => a.status - b.status);
}
