import type { Metadata } from "next";
import { UserCardView } from "@/components/leads/card/user-card-view";

export const metadata: Metadata = { title: "Lead" };

export default async function UserCardPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <UserCardView userId={id} />;
}
