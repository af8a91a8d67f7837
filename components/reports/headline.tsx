import { changeText, formatFigure, previousPeriodText, type Compared } from "./headlines";

interface HeadlineProps {
  id: string;
  figures: Compared[];
  from: string;
  to: string;
  /**
   * Which way is good (shorter times, more leads): shown green, the other way amber; left out for counts that are
   * neither (more conversations). The arrow and the words carry the direction, the colour only adds to it.
   */
  good?: "up" | "down";
}

function tone(kind: string | undefined, good: "up" | "down" | undefined): string {
  if (!good || (kind !== "up" && kind !== "down")) return "text-slate-700";
  return kind === good ? "text-emerald-700" : "text-amber-800";
}

/** A card's figures for the whole range as text, each with its change against the previous period. */
export function Headline({ id, figures, from, to, good }: HeadlineProps) {
  const period = previousPeriodText(from, to);
  return (
    <div className="mt-3 flex flex-wrap gap-x-8 gap-y-2" data-testid={`report-${id}-headline`}>
      {figures.map((f) => {
        const c = f.change && changeText(f.change, period);
        return (
          <div key={f.label} className="min-w-0">
            <p className="text-sm text-slate-600" data-testid={`report-${id}-figure`}>
              <span className="text-2xl font-semibold tabular-nums text-slate-900">{formatFigure(f)}</span>{" "}
              {f.label}
            </p>
            {/* The arrow and sign are hidden from screen readers, which read "up 12%" instead. */}
            <p className="text-xs text-slate-600" data-testid={`report-${id}-change`}>
              {c ? (
                <>
                  {c.shown && (
                    <span aria-hidden className={`font-medium ${tone(f.change?.kind, good)}`}>
                      {c.shown}
                    </span>
                  )}
                  {c.said && <span className="sr-only">{c.said}</span>}
                  {c.rest}
                </>
              ) : (
                // Kept one line high while the previous period loads, so the card does not jump.
                "\u00a0"
              )}
            </p>
          </div>
        );
      })}
    </div>
  );
}
