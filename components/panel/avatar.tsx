import { cn } from "@/components/ui/cn";
import { cleanUserText } from "@/components/ui/user-text";
import { safeUrl } from "@/lib/client/safe-url";

function initials(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  const first = parts[0]?.[0] ?? "?";
  const last = parts.length > 1 ? (parts[parts.length - 1]?.[0] ?? "") : "";
  return (first + last).toUpperCase();
}

/**
 * `src` is an operator's avatar or a user's that the site set (never one a visitor chose: ./user-avatar.ts), an
 * external URL: used only when it is http(s).
 */
export function Avatar({ name, src, className }: { name: string; src?: unknown; className?: string }) {
  const url = safeUrl(src);
  if (url) {
    // eslint-disable-next-line @next/next/no-img-element -- operator avatars are arbitrary external URLs
    return <img src={url} alt="" className={cn("size-8 shrink-0 rounded-full object-cover", className)} />;
  }
  return (
    <span
      aria-hidden="true"
      className={cn(
        "inline-flex size-8 shrink-0 items-center justify-center rounded-full bg-brand-100 text-xs font-semibold text-brand-800",
        className,
      )}
    >
      {initials(cleanUserText(name))}
    </span>
  );
}
