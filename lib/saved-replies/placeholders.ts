/**
 * Placeholders of saved replies, expanded in the panel when one is inserted (the composer knows both names):
 * `{{visitor_name}}`, `{{operator_name}}`, each with an optional fallback for an unknown name,
 * `{{visitor_name|there}}`. Unknown placeholders stay as written, so a typo shows before sending.
 */
export const PLACEHOLDERS = ["visitor_name", "operator_name"] as const;
export type Placeholder = (typeof PLACEHOLDERS)[number];

const PATTERN = /\{\{\s*([a-z_]+)\s*(?:\|([^{}]*))?\}\}/g;

export function expandPlaceholders(
  body: string,
  values: Partial<Record<Placeholder, string | null | undefined>>,
): string {
  return body.replace(PATTERN, (whole, name: string, fallback: string | undefined) => {
    if (!(PLACEHOLDERS as readonly string[]).includes(name)) return whole;
    const value = values[name as Placeholder]?.trim();
    return value ? value : (fallback ?? "").trim();
  });
}
