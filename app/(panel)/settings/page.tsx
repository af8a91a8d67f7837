import type { Metadata } from "next";
import { PageHeader } from "@/components/panel/page-header";
import { SettingsTabs } from "@/components/settings/settings-tabs";

export const metadata: Metadata = { title: "Settings" };

export default function SettingsPage() {
  return (
    <>
      <PageHeader
        title="Settings"
        description="API keys, webhooks, the messenger, office hours, email, saved replies and channels of this app."
      />
      <SettingsTabs />
    </>
  );
}
