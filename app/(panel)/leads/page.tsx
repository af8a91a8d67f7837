import type { Metadata } from "next";
import { EmptyState, PageHeader } from "@/components/panel/page-header";

export const metadata: Metadata = { title: "Leads" };

export default function LeadsPage() {
  return (
    <>
      <PageHeader
        title="Leads"
        description="People you know something about: filter, segment and reach out."
      />
      <EmptyState title="No leads yet">
        Users become leads once you know their name, email or phone.
      </EmptyState>
    </>
  );
}
