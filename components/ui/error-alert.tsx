import { isApiClientError } from "@/lib/client/api";
import { cn } from "./cn";

/** The server's message (and its per-field messages) for a failed request, announced as an alert. */
export function ErrorAlert({
  error,
  title,
  className,
}: {
  error: unknown;
  title?: string;
  className?: string;
}) {
  if (!error) return null;
  const message = error instanceof Error ? error.message : "Something went wrong. Please try again.";
  const fields = isApiClientError(error) ? Object.entries(error.fields) : [];
  return (
    <div
      role="alert"
      className={cn("rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800", className)}
    >
      {title && <p className="font-medium">{title}</p>}
      <p>{message}</p>
      {fields.length > 0 && (
        <ul className="mt-1 list-disc pl-5">
          {fields.map(([field, text]) => (
            <li key={field}>
              <span className="font-mono">{field}</span>: {text}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
