import type { Metadata } from "next";
import { EmptyState, PageHeader } from "@/components/panel/page-header";

export const metadata: Metadata = { title: "Settings" };

export default function SettingsPage() {
  return (
    <>
      <PageHeader title="Settings" description="Your app, your team, API tokens and webhooks." />
      <EmptyState title="Nothing to configure here yet" />
    </>
  );
}
