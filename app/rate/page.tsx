import type { Metadata } from "next";
import { RateForm } from "./rate-form";

// The link's token is a capability: no search engine keeps the page, and no Referer carries it anywhere.
export const metadata: Metadata = {
  title: "Rate your conversation",
  robots: { index: false, follow: false },
  referrer: "no-referrer",
};

/** Where a rating email's score links lead (lib/csat/email.ts): the score is recorded, a comment may follow. */
export default async function RatePage({
  searchParams,
}: {
  searchParams: Promise<{ t?: string | string[] }>;
}) {
  const { t } = await searchParams;
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center bg-slate-50 px-4 py-12 sm:px-6">
      <div className="w-full max-w-sm rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:p-8">
        <RateForm token={typeof t === "string" ? t.trim() : ""} />
      </div>
    </main>
  );
}
