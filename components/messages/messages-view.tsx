"use client";

import { ArchivableList } from "@/components/panel/archivable-list";
import { MessagesTable } from "./messages-table";

/** Messages: the app's proactive messages, live or archived. */
export function MessagesView() {
  return (
    <ArchivableList
      title="Messages"
      description="Chat messages, pop-ups and emails sent to users when they do something."
      path="/messages"
      newLabel="New message"
      table={(appId, view) => <MessagesTable key={view} appId={appId} view={view} />}
    />
  );
}
