import { formatIsoDateTime } from "@/lib/client/format";

/** A prop value as plain text (lists joined, objects as JSON), "" for nothing. */
export function asText(v: unknown): string {
  if (v === null || v === undefined) return "";
  if (Array.isArray(v)) return v.map(asText).join(", ");
  if (typeof v === "object") return JSON.stringify(v);
  return typeof v === "string" ? v : `${v as number | boolean | bigint}`;
}

/** How lead values read in the panel. */
export function formatValue(v: unknown): string {
  if (v === null || v === undefined || v === "") return "—";
  if (Array.isArray(v)) return v.join(", ");
  if (typeof v === "boolean") return v ? "Yes" : "No";
  if (typeof v === "string" && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/.test(v)) return formatIsoDateTime(v);
  return asText(v);
}

export function leadName(props: Record<string, unknown>, id: string | number): string {
  const name = props.$name;
  if (typeof name === "string" && name) return name;
  const email = props.$email;
  if (typeof email === "string" && email) return email;
  return `Visitor #${id}`;
}

export const PRESENCE_LABEL: Record<string, string> = { online: "Online", idle: "Idle", offline: "Offline" };

export function presenceClass(p: string): string {
  return p === "online" ? "bg-emerald-500" : p === "idle" ? "bg-amber-400" : "bg-slate-300";
}

/** The system props as the table heads them (the catalog names them by key: `$name`). */
const SYSTEM_LABEL: Record<string, string> = {
  $name: "Name",
  $email: "Email",
  $phone: "Phone",
  $avatar: "Avatar",
  $initial_referrer: "Referrer",
  $country: "Country",
  $region: "Region",
  $city: "City",
  $sessions: "Sessions",
  $last_seen: "Last seen",
  $last_contacted: "Last contacted",
  $last_reply: "Last reply",
  $user_id: "User ID",
};

/** A prop's name for people: the system ones' words, else the catalog's label (custom props, events), else the key. */
export function propLabel(name: string, catalogLabel?: string): string {
  return SYSTEM_LABEL[name] ?? catalogLabel ?? name;
}

/** The user ID a visitor's page passed without its hash (a label, not the user's ID), from `props_sources`. */
export function claimedUserIdOf(sources: unknown): string | null {
  if (typeof sources !== "object" || sources === null) return null;
  const claim = (sources as { $user_id?: { verified?: unknown; claimed?: unknown } }).$user_id;
  return claim?.verified === false && typeof claim.claimed === "string" ? claim.claimed : null;
}
