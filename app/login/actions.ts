"use server";

import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { isDomainError } from "@/lib/domain/errors";
import { CLIENT_IP_HEADER } from "@/lib/api/headers";
import { logIn } from "@/lib/auth/login";
import { createSession, SESSION_COOKIE, sessionCookieAttributes } from "@/lib/auth/sessions";
import { safeNextPath } from "@/lib/client/safe-next";
import { getRuntime } from "@/lib/server/runtime";

export type LoginProblem = "failed" | "throttled";

/**
 * The login form posted before (or without) the page's script: the same checks, limit and cookie as
 * POST /api/auth/login (lib/sessions/endpoints.ts), answered with a redirect instead of an envelope. With the script,
 * the form calls the API itself and this never runs.
 */
export async function logInWithoutScript(form: FormData): Promise<void> {
  const rt = getRuntime();
  const h = await headers();
  const field = (name: string) => {
    const v = form.get(name);
    return typeof v === "string" ? v : "";
  };
  const next = safeNextPath(field("next"));
  const back = (problem: LoginProblem) =>
    redirect(`/login?${new URLSearchParams({ next, problem }).toString()}`);
  const address = h.get(CLIENT_IP_HEADER) ?? "unknown";
  // The API's limit for requests without a session: one bucket per peer address, shared with the API's login.
  if (!(await rt.limiter.take(`ip:${address}`)).ok) back("throttled");
  const email = field("email").trim().slice(0, 320);
  const password = field("password").slice(0, 1000);
  if (!email || !password) back("failed");
  let adminId: bigint;
  try {
    adminId = (await logIn({ db: rt.db }, { email, password, address })).id;
  } catch (err) {
    if (isDomainError(err) && err.kind === "wrong_credentials") back("failed");
    if (isDomainError(err) && err.kind === "throttled") back("throttled");
    throw err;
  }
  const s = await createSession(rt.db, adminId);
  (await cookies()).set(SESSION_COOKIE, s.cookieValue, {
    ...sessionCookieAttributes(h.get("x-forwarded-proto") === "https"),
    expires: s.expires,
  });
  redirect(next);
}
