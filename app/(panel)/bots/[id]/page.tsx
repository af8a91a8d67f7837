import type { Metadata } from "next";
import { BotDetailView } from "@/components/bots/bot-page";

export const metadata: Metadata = { title: "Bot" };

export default async function BotPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <BotDetailView botId={id} />;
}
