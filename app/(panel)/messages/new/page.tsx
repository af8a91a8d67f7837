import type { Metadata } from "next";
import { NewMessageView } from "@/components/messages/message-page";

export const metadata: Metadata = { title: "New message" };

export default function NewMessagePage() {
  return <NewMessageView />;
}
