import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { VERSIONS, versionBySlug } from "@/lib/docs/reference";
import { DocsShell } from "../_components/shell";
import { Overview } from "../_components/overview";

export const dynamicParams = false;

export function generateStaticParams() {
  return VERSIONS.map((v) => ({ version: v.slug }));
}

type Params = Promise<{ version: string }>;

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const { version } = await params;
  return { title: `API reference ${version}` };
}

export default async function VersionPage({ params }: { params: Params }) {
  const version = versionBySlug((await params).version);
  if (!version) notFound();
  return (
    <DocsShell version={version}>
      <Overview version={version} />
    </DocsShell>
  );
}
