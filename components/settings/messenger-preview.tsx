import type { MessengerPosition } from "@/lib/client/settings-types";
import { cn } from "@/components/ui/cn";

/**
 * A sketch of the open messenger with the form's unsaved values, so a change is seen before it is saved. Not the
 * messenger itself (that is its own bundle, drawn in an iframe on the site): colours, side and texts only.
 */
export function MessengerPreview({
  color,
  position,
  greeting,
  teamIntro,
  replyTimeText,
}: {
  color: string;
  position: MessengerPosition;
  greeting: string;
  teamIntro: string;
  replyTimeText: string;
}) {
  const accent = /^#[0-9a-f]{6}$/i.test(color) ? color : "#64748b";
  return (
    <figure className="rounded-lg bg-slate-100 p-3" data-testid="messenger-preview">
      <figcaption className="mb-2 text-xs font-medium text-slate-600">Preview</figcaption>
      <div className={cn("flex flex-col gap-2", position === "left" ? "items-start" : "items-end")}>
        <div className="w-64 overflow-hidden rounded-xl bg-white shadow-md" aria-hidden="true">
          <div className="px-4 py-3 text-white" style={{ backgroundColor: accent }}>
            <p className="text-sm font-semibold break-words">{greeting || " "}</p>
            <p className="mt-1 text-xs break-words opacity-90">{teamIntro}</p>
          </div>
          <p className="px-4 py-3 text-xs text-slate-600 break-words">{replyTimeText}</p>
        </div>
        <div
          className="size-11 rounded-full shadow-md"
          style={{ backgroundColor: accent }}
          aria-hidden="true"
        />
      </div>
    </figure>
  );
}
