import type { Metadata } from "next";
import { UnsubscribeForm } from "./unsubscribe-form";

// The link's token is a capability: no search engine keeps the page, and no Referer carries it anywhere.
export const metadata: Metadata = {
  title: "Unsubscribe",
  robots: { index: false, follow: false },
  referrer: "no-referrer",
};

/**
 * Where an email's "Unsubscribe" link leads (lib/email/continuity.ts). Opening it changes nothing: link scanners
 * open every link of an email, so only the button unsubscribes. The token names a person and nothing more, so the
 * page names neither them nor the app.
 */
export default async function UnsubscribePage({
  searchParams,
}: {
  searchParams: Promise<{ t?: string | string[]; s?: string | string[] }>;
}) {
  const { t, s } = await searchParams;
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center bg-slate-50 px-4 py-12 sm:px-6">
      <div className="w-full max-w-sm rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:p-8">
        <UnsubscribeForm
          token={typeof t === "string" ? t.trim() : ""}
          send={typeof s === "string" ? s.trim() : ""}
        />
      </div>
    </main>
  );
}
