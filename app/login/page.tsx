import type { Metadata } from "next";
import { LogoMark } from "@/components/ui/logo";
import { safeNextPath } from "@/lib/client/safe-next";
import { LoginForm } from "./login-form";

export const metadata: Metadata = { title: "Log in" };

// The form is rendered on the server with `next` read here: a form that read it in the browser would render
// only after the page's script ran.
export default async function LoginPage({
  searchParams,
}: {
  searchParams: Promise<{ next?: string | string[]; problem?: string | string[] }>;
}) {
  const { next, problem } = await searchParams;
  // An operator already logged in never sees this page: proxy.ts sends them on to `next`.
  const target = safeNextPath(typeof next === "string" ? next : undefined);
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center bg-slate-50 px-4 py-12 sm:px-6">
      <div className="w-full max-w-sm">
        <div className="mb-8 flex flex-col items-center text-center">
          <LogoMark className="size-11 rounded-xl" />
          <h1 className="mt-5 text-2xl font-semibold tracking-tight text-slate-900">Log in to Relay</h1>
          <p className="mt-1.5 text-sm text-slate-600">Welcome back. Your conversations are waiting.</p>
        </div>
        <div className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:p-8">
          <LoginForm
            next={target}
            problem={problem === "failed" || problem === "throttled" ? problem : undefined}
          />
        </div>
      </div>
    </main>
  );
}
