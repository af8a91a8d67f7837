import type { Metadata } from "next";
import { MessageDetailView } from "@/components/messages/message-page";

export const metadata: Metadata = { title: "Message" };

export default async function MessagePage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <MessageDetailView messageId={id} />;
}
