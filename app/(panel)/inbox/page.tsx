import type { Metadata } from "next";
import { EmptyState, PageHeader } from "@/components/panel/page-header";

export const metadata: Metadata = { title: "Inbox" };

export default function InboxPage() {
  return (
    <>
      <PageHeader title="Inbox" description="Conversations with your users, newest first." />
      <EmptyState title="No conversations yet">
        When a user writes to you, the conversation appears here.
      </EmptyState>
    </>
  );
}
