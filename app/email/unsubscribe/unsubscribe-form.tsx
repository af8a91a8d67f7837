"use client";

import { useEffect, useRef, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { ErrorAlert } from "@/components/ui/error-alert";
import { useUnsubscribe } from "@/lib/client/use-unsubscribe";

const heading = "text-xl font-semibold tracking-tight text-slate-900";

/**
 * The question and its one button, then the answer; `token` is the link's `t` ("" when the link lost it), `send` its
 * `s` (an email message's send, "" for other emails).
 */
export function UnsubscribeForm({ token, send }: { token: string; send: string }) {
  const unsubscribe = useUnsubscribe();
  const done = useRef<HTMLHeadingElement>(null);

  // The button is gone once it worked: focus goes to what replaced it, which is also read out.
  useEffect(() => {
    if (unsubscribe.isSuccess) done.current?.focus();
  }, [unsubscribe.isSuccess]);

  if (!token) {
    return (
      <>
        <h1 className={heading}>Unsubscribe</h1>
        <p role="alert" className="mt-3 text-sm text-slate-700">
          This unsubscribe link is incomplete. Open the whole link from the email again.
        </p>
      </>
    );
  }
  if (unsubscribe.isSuccess) {
    return (
      <div role="status">
        <h1 ref={done} tabIndex={-1} className={`${heading} focus:outline-none`}>
          Unsubscribed
        </h1>
        <p className="mt-3 text-sm text-slate-700">You are unsubscribed: no more emails from us.</p>
      </div>
    );
  }

  function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (!unsubscribe.isPending) unsubscribe.mutate({ token, send });
  }

  return (
    <form onSubmit={onSubmit} aria-labelledby="unsubscribe-title" className="space-y-5">
      <div>
        <h1 id="unsubscribe-title" className={heading}>
          Unsubscribe?
        </h1>
        <p className="mt-3 text-sm text-slate-700">
          You will get no more emails from us: neither replies to your conversations nor their transcripts.
        </p>
      </div>
      {unsubscribe.isError && <ErrorAlert error={unsubscribe.error} title="Could not unsubscribe" />}
      {/* The one thing to do here: focused, so Enter or Space does it. */}
      <Button type="submit" size="lg" className="w-full" loading={unsubscribe.isPending} autoFocus>
        {unsubscribe.isPending ? "Unsubscribing…" : "Unsubscribe"}
      </Button>
    </form>
  );
}
