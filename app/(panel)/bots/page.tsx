import type { Metadata } from "next";
import { Suspense } from "react";
import { BotsView } from "@/components/bots/bots-view";

export const metadata: Metadata = { title: "Bots" };

export default function BotsPage() {
  return (
    <Suspense>
      <BotsView />
    </Suspense>
  );
}
