/** What the Leads pickers (property, columns) share. */

/** Options rendered at most: a list of hundreds is scrolled less than it is narrowed by typing. */
export const SHOWN_MAX = 100;

/** Case-insensitive: any of the texts (label, key) holds the typed words in order. */
export function matchesQuery(query: string, ...texts: string[]): boolean {
  const words = query.trim().toLowerCase().split(/\s+/).filter(Boolean);
  if (!words.length) return true;
  return texts.some((t) => {
    const s = t.toLowerCase();
    let at = 0;
    for (const w of words) {
      const i = s.indexOf(w, at);
      if (i < 0) return false;
      at = i + w.length;
    }
    return true;
  });
}

export const POPUP_CLASS =
  "absolute left-0 z-20 mt-1 rounded-lg bg-white shadow-lg ring-1 ring-slate-200 focus:outline-none";
export const OPTION_CLASS = "flex cursor-pointer items-center gap-2 px-3 py-1.5 text-sm text-slate-800";
