import type { Ctx } from "../auth/context";
import type { Result } from "../api/endpoint";
import { v1Meta, v2Meta } from "../api/pagination";
import { attachmentUrls, publicBase, type AttachmentUrl } from "../attachments/sign";
import type { Keyset, KeysetPage } from "../domain/keyset";
import { CONVERSATION_KEY } from "./list";
import { serializeConversation, type ConversationView } from "./view";
import type { ApiRequest } from "../api/api-request";

const first = (v: string | null) => v?.split(",")[0]?.trim() || undefined;

/**
 * The origin the caller used: its Host header (Next's `req.url` names its own default host), through a reverse
 * proxy the X-Forwarded-* headers. Only this response's links depend on it.
 */
function requestOrigin(req: ApiRequest): string {
  const url = new URL(req.url);
  const proto = first(req.headers.get("x-forwarded-proto")) ?? url.protocol.replace(/:$/, "");
  const host = first(req.headers.get("x-forwarded-host")) ?? first(req.headers.get("host")) ?? url.host;
  return `${proto}://${host}`;
}

/** Attachment links in API responses point at the origin the request came to, unless PUBLIC_URL says otherwise. */
export function responseUrls(ctx: Ctx, req: ApiRequest): Promise<AttachmentUrl> {
  return attachmentUrls(ctx.db, publicBase(requestOrigin(req)));
}

/** A page of conversations (an app's Inbox list, a user's list) in one API version's shape and paging meta. */
export async function conversationPage(
  ctx: Ctx,
  req: ApiRequest,
  version: 1 | 2,
  keyset: Keyset,
  page: KeysetPage<ConversationView>,
): Promise<Result> {
  const urls = await responseUrls(ctx, req);
  return {
    data: page.items.map((v) => serializeConversation(v, { version, urls })),
    meta: version === 1 ? v1Meta(CONVERSATION_KEY, keyset, page) : v2Meta(CONVERSATION_KEY, keyset, page),
  };
}

/** Optional ID-like parameters that clients send empty, `0` or `null` to mean "none". */
export function orNone(v: unknown): unknown {
  const last = Array.isArray(v) ? (v as unknown[])[v.length - 1] : v;
  if (last === null || last === undefined) return undefined;
  return typeof last === "string" && ["", "null", "none"].includes(last.trim().toLowerCase()) ? "none" : last;
}
