"use client";

import { useCurrentApp } from "@/lib/client/use-current-app";
import { useEmailBounce } from "@/lib/client/use-email-bounce";

/** "Email bouncing", under a user's address, when a hard bounce stopped the app emailing it. */
export function EmailBounceNote({
  address,
  className,
}: {
  address: string | null | undefined;
  className?: string;
}) {
  const appId = String(useCurrentApp().app?.id ?? "");
  const bounce = useEmailBounce(appId, address);
  if (!bounce.data?.bouncing) return null;
  return (
    <span
      className={className ?? "block text-xs text-red-700"}
      data-testid="email-bouncing"
      title={bounce.data.reason ?? undefined}
    >
      Email bouncing: nothing more is sent to this address
    </span>
  );
}
