import { Button } from "@/components/ui/button";
import { ErrorAlert } from "@/components/ui/error-alert";

/**
 * A settings form's last row: the server's refusal (above, as an alert), the submit button, and "Saved." once
 * the change is in, announced politely.
 */
export function SaveRow({
  label,
  pending,
  saved,
  error,
  errorTitle,
}: {
  label: string;
  pending: boolean;
  saved: boolean;
  error: unknown;
  errorTitle: string;
}) {
  return (
    <>
      <ErrorAlert error={error} title={errorTitle} />
      <div className="flex items-center gap-3">
        <Button type="submit" loading={pending}>
          {label}
        </Button>
        <p aria-live="polite" className="text-sm text-emerald-700">
          {saved ? "Saved." : ""}
        </p>
      </div>
    </>
  );
}
