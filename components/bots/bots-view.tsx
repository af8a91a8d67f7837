"use client";

import { ArchivableList } from "@/components/panel/archivable-list";
import { BotsTable } from "./bots-table";

/** Bots: the app's bots, live or archived. */
export function BotsView() {
  return (
    <ArchivableList
      title="Bots"
      description="Answer visitors' first messages: ask who they are, or send them to the right team."
      path="/bots"
      newLabel="New bot"
      table={(appId, view) => <BotsTable key={view} appId={appId} view={view} />}
    />
  );
}
