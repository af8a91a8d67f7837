"use client";

import { useMessengerSettings } from "@/lib/client/use-messenger-settings";
import { SectionQuery } from "./section-query";
import { MessengerAppearance } from "./messenger-appearance";
import { MessengerIdentity } from "./messenger-identity";
import { MessengerInstall } from "./messenger-install";
import { MessengerOrigins } from "./messenger-origins";
import { CsatSetting } from "./csat-setting";

/** Settings → Messenger: what a site owner needs to put the messenger on their site. */
export function MessengerSection({ appId }: { appId: string }) {
  return (
    <SectionQuery query={useMessengerSettings(appId)} what="the messenger settings">
      {(s) => (
        <div className="space-y-6">
          <MessengerInstall appId={appId} settings={s} />
          {/* Each form starts from the stored values and keeps its own edits: saving one leaves the other's alone. */}
          <MessengerAppearance appId={appId} settings={s} />
          <MessengerOrigins appId={appId} settings={s} />
          <MessengerIdentity appId={appId} settings={s} />
          <CsatSetting appId={appId} />
        </div>
      )}
    </SectionQuery>
  );
}
