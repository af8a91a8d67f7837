import { safeUrl } from "@/lib/client/safe-url";

/**
 * The avatar URL the panel may load for a user (their props and `props_sources`), if any. Loading a URL that a
 * visitor chose would tell the visitor when and from where operators look at them (a tracking pixel), so only an
 * avatar whose recorded source is the site or the team is loaded: the REST API (lib/props/set-props.ts records
 * each write of `$avatar`) or an import. Not one from the messenger (`messenger…`), and not one with no record:
 * those were stored when visitors could set their own, and nothing tells them apart from the site's.
 */
export function userAvatarUrl(props: Record<string, unknown>, sources: unknown): string | undefined {
  const url = safeUrl(props.$avatar);
  if (!url || typeof sources !== "object" || sources === null) return undefined;
  const type = (sources as { $avatar?: { type?: unknown } }).$avatar?.type;
  return typeof type === "string" && !type.startsWith("messenger") ? url : undefined;
}
