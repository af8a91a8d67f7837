import type { Metadata } from "next";
import { DEFAULT_VERSION } from "@/lib/docs/reference";
import { DocsShell } from "./_components/shell";
import { Overview } from "./_components/overview";

export const metadata: Metadata = { title: "API reference" };

export default function DocsPage() {
  return (
    <DocsShell version={DEFAULT_VERSION}>
      <Overview version={DEFAULT_VERSION} />
    </DocsShell>
  );
}
