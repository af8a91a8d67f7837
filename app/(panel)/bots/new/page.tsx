import type { Metadata } from "next";
import { NewBotView } from "@/components/bots/bot-page";

export const metadata: Metadata = { title: "New bot" };

export default function NewBotPage() {
  return <NewBotView />;
}
