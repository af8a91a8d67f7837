"use client";

import { useEffect, useRef, useState, type FormEvent } from "react";
import { Stars } from "@/components/csat/stars";
import { Button } from "@/components/ui/button";
import { ErrorAlert } from "@/components/ui/error-alert";
import { useRateByLink } from "@/lib/client/use-rate-by-link";

const heading = "text-xl font-semibold tracking-tight text-slate-900";

/**
 * The score of the link is recorded as the page opens (by this script: a mail scanner's fetch records nothing),
 * then thanks, the score given and an optional comment; a link of a conversation already rated says so.
 */
export function RateForm({ token }: { token: string }) {
  const rate = useRateByLink();
  const comment = useRateByLink();
  const [text, setText] = useState("");
  const started = useRef(false);
  const { mutate } = rate;

  useEffect(() => {
    if (!token || started.current) return;
    started.current = true;
    mutate({ token });
  }, [token, mutate]);

  if (!token) {
    return (
      <>
        <h1 className={heading}>Rate your conversation</h1>
        <p role="alert" className="mt-3 text-sm text-slate-700">
          This rating link is incomplete. Open the whole link from the email again.
        </p>
      </>
    );
  }
  if (rate.isError) {
    return (
      <>
        <h1 className={heading}>Rate your conversation</h1>
        <ErrorAlert className="mt-3" error={rate.error} title="Your rating was not recorded" />
      </>
    );
  }
  const given = comment.data ?? rate.data;
  if (!given) return <p className="text-sm text-slate-600">Recording your rating…</p>;

  function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (text.trim() && !comment.isPending) comment.mutate({ token, comment: text.trim() });
  }

  return (
    <div className="space-y-4" role="status">
      <h1 className={heading}>Thank you!</h1>
      <p className="text-sm text-slate-700" data-testid="rated">
        You rated the conversation <Stars rating={given.rating ?? 0} className="text-lg" />
      </p>
      {given.comment ? (
        <p className="text-sm text-slate-700">Your comment: “{given.comment}”</p>
      ) : (
        <form onSubmit={onSubmit} className="space-y-3">
          <label className="block text-sm font-medium text-slate-800" htmlFor="rating-comment">
            Anything to add? (optional)
          </label>
          <textarea
            id="rating-comment"
            className="w-full rounded-lg border border-slate-300 px-3 py-2 text-sm"
            rows={3}
            maxLength={2000}
            value={text}
            onChange={(e) => setText(e.target.value)}
          />
          <ErrorAlert error={comment.error} title="Your comment was not sent" />
          <Button type="submit" loading={comment.isPending} disabled={!text.trim()}>
            Send comment
          </Button>
        </form>
      )}
    </div>
  );
}
