import type { Metadata } from "next";
import { DEFAULT_VERSION } from "@/lib/docs/reference";
import { guideBySlug } from "@/lib/docs/guides/catalog";
import { DocsShell } from "../../_components/shell";

/** A guide's frame: the reference's shell (guides are the same in every version, so the default one's). */
export function GuidePage({ slug, children }: { slug: string; children: React.ReactNode }) {
  const guide = guideBySlug(slug);
  if (!guide) throw new Error(`No guide ${slug} in lib/docs/guides/catalog.ts`);
  return (
    <DocsShell version={DEFAULT_VERSION} guide={slug}>
      <article className="max-w-4xl">
        <p className="text-sm font-medium text-slate-500">Guide</p>
        <h1 className="text-3xl font-semibold">{guide.title}</h1>
        <p className="mt-2 text-slate-600">{guide.summary}</p>
        {children}
      </article>
    </DocsShell>
  );
}

export function guideMetadata(slug: string): Metadata {
  return { title: `${guideBySlug(slug)?.title ?? "Guide"} · API reference` };
}

export function Section({ id, title, children }: { id: string; title: string; children: React.ReactNode }) {
  return (
    <section id={id} aria-labelledby={`${id}-title`} className="mt-10 scroll-mt-20">
      <h2 id={`${id}-title`} className="text-xl font-semibold">
        <a href={`#${id}`} className="hover:underline">
          {title}
        </a>
      </h2>
      <div className="mt-3 space-y-3 text-sm leading-relaxed text-slate-700">{children}</div>
    </section>
  );
}

/** One block of code, selectable as it is (no line numbers or prompts in the text). */
export function Code({ code, label }: { code: string; label: string }) {
  return (
    <pre
      tabIndex={0}
      aria-label={label}
      className="overflow-x-auto rounded-lg bg-slate-900 p-4 text-xs leading-relaxed text-slate-100"
    >
      <code>{code}</code>
    </pre>
  );
}
