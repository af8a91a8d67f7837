import { NextResponse, type NextRequest } from "next/server";
import { SESSION_COOKIE, verifySession } from "@/lib/auth/sessions";
import { safeNextPath } from "@/lib/client/safe-next";
import { getRuntime } from "@/lib/server/runtime";

/**
 * Panel pages are served to operators with a live session only; anyone else is sent to log in and brought back
 * afterwards. Here rather than in the panel's layout because a layout is not told the path it renders. The login
 * page is the reverse: an operator with a live session goes on to `next`, decided here from the cookie rather than
 * by the browser asking /api/auth/me, which answers 401 (an error in every visitor's console) to everyone else.
 */
export async function proxy(req: NextRequest): Promise<NextResponse> {
  const cookie = req.cookies.get(SESSION_COOKIE)?.value;
  const live = cookie !== undefined && (await verifySession(getRuntime().db, cookie)) !== null;
  if (req.nextUrl.pathname === "/login") {
    if (!live) return NextResponse.next();
    const wanted = req.nextUrl.searchParams.get("next");
    return NextResponse.redirect(new URL(safeNextPath(wanted ?? undefined), req.url), 307);
  }
  if (live) return NextResponse.next();
  const next = safeNextPath(req.nextUrl.pathname + req.nextUrl.search);
  const login = new URL(`/login?${new URLSearchParams({ next }).toString()}`, req.url);
  // Same origin as the request, so Next sends the Location as a path: the Host header never picks the target.
  return NextResponse.redirect(login, 307);
}

export const config = {
  matcher: [
    "/login",
    "/inbox/:path*",
    "/leads/:path*",
    "/messages/:path*",
    "/bots/:path*",
    "/reports/:path*",
    "/settings/:path*",
  ],
};
