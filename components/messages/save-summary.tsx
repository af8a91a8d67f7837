import { Button } from "@/components/ui/button";

/** The server's refusal explained by the server; the loop part is the operator's to overrule. */
const loopText = (text: string) => text.replace(/;\s*pass confirm_loop.*$/, ".");

/**
 * Above the editor's Save button: why the last save failed (the fields themselves show their errors; what no field
 * shows is listed here), or the loop the server found, with "Save anyway".
 */
export function SaveSummary({
  error,
  local,
  rest,
  loop,
  onSaveAnyway,
  pending,
}: {
  error: Error | null;
  /** The form itself refused to send (a number that is no number, an audience condition without a value). */
  local: boolean;
  rest: [string, string][];
  loop: string | null;
  onSaveAnyway: () => void;
  pending: boolean;
}) {
  if (loop)
    return (
      <div
        role="alert"
        className="rounded-lg border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900"
      >
        <p className="font-medium">This message would trigger itself</p>
        <p className="mt-0.5 first-letter:uppercase">{loopText(loop)}</p>
        <p className="mt-0.5">
          Users could get it again and again. Save it anyway only if that is what you want.
        </p>
        <Button className="mt-2" size="sm" variant="secondary" onClick={onSaveAnyway} loading={pending}>
          Save anyway
        </Button>
      </div>
    );
  if (!local && !error) return null;
  return (
    <div role="alert" className="rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
      <p className="font-medium">The message was not saved</p>
      <p>{local ? "Check the fields marked above." : error?.message}</p>
      {rest.length > 0 && (
        <ul className="mt-1 list-disc pl-5">
          {rest.map(([field, text]) => (
            <li key={field}>
              <span className="font-mono">{field}</span>: {text}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
