"use client";

import type { ReactNode } from "react";
import type { UseQueryResult } from "@tanstack/react-query";
import { Button } from "@/components/ui/button";
import { ErrorAlert } from "@/components/ui/error-alert";
import { Spinner } from "@/components/ui/spinner";

/**
 * A settings section's one query: a spinner while it loads, the error with a way to try again, then the section
 * drawn from its data. `what` names the data in those words ("the messenger settings").
 */
export function SectionQuery<T>({
  query,
  what,
  children,
}: {
  query: UseQueryResult<T>;
  what: string;
  children: (data: T) => ReactNode;
}) {
  if (query.isPending)
    return (
      <p className="flex items-center gap-2 text-sm text-slate-600">
        <Spinner /> Loading {what}…
      </p>
    );
  if (query.isError)
    return (
      <div className="space-y-3">
        <ErrorAlert error={query.error} title={`Could not load ${what}`} />
        <Button variant="secondary" size="sm" onClick={() => void query.refetch()}>
          Try again
        </Button>
      </div>
    );
  return <>{children(query.data)}</>;
}
