import type { DatasetInfo } from "./dataset";

/**
 * One leads filter per kind the grammar has (lib/leads/filter-grammar.ts): every condition family on system,
 * custom and event properties, tags, segments and nested groups, with values the dataset (bench/dataset-sql.ts)
 * makes both frequent and rare. Each is measured at the first page and at offset 9,980.
 */
export interface LeadsFilterCase {
  label: string;
  filters?: unknown;
  sort?: { prop: string; order: "asc" | "desc" };
}

const c = (property_name: string, type: string, value: Record<string, unknown> = {}) => ({
  property_name,
  type,
  value,
});

/** The segment the `$segment` case names: created by the bench if missing. */
export const BENCH_SEGMENT = {
  name: "bench: paying, returning",
  filters: [c("plan", "str_neq", { value: "free" }), c("$sessions", "gte", { value: 3 })],
};

export function leadsFilterCases(ds: DatasetInfo): LeadsFilterCase[] {
  const at = new Date(ds.at);
  const daysAgo = (d: number) => new Date(at.getTime() - d * 86_400_000).toISOString().slice(0, 19);
  const ev = (name: string, part: string) => `$event_${ds.eventTypes[name]}_${part}`;
  const checkoutCount = ev("checkout_completed", "count");
  return [
    { label: "no filter" },
    {
      label: "3 conditions (country, sessions, last_seen) + sort",
      filters: [
        c("$country", "str_eq", { value: "United States" }),
        c("$sessions", "gte", { value: 2 }),
        c("$last_seen", "date_gt", { value: daysAgo(90) }),
      ],
      sort: { prop: "$last_seen", order: "desc" },
    },
    // Text on system props.
    { label: "system str_contains $name", filters: [c("$name", "str_contains", { value: "arsen" })] },
    { label: "system str_contains $email", filters: [c("$email", "str_contains", { value: "kowalski" })] },
    { label: "system str_contains $city", filters: [c("$city", "str_contains", { value: "holm" })] },
    { label: "system str_starts $city", filters: [c("$city", "str_starts", { value: "san" })] },
    { label: "system str_eq $country", filters: [c("$country", "str_eq", { value: "japan" })] },
    { label: "system str_neq $country", filters: [c("$country", "str_neq", { value: "United States" })] },
    { label: "system str_ncontains $email", filters: [c("$email", "str_ncontains", { value: "gmail" })] },
    { label: "system known $phone", filters: [c("$phone", "known")] },
    { label: "system unknown $name", filters: [c("$name", "unknown")] },
    { label: "system known $name", filters: [c("$name", "known")] },
    { label: "system known $email", filters: [c("$email", "known")] },
    { label: "system unknown $email", filters: [c("$email", "unknown")] },
    // Numbers.
    { label: "system gte $sessions", filters: [c("$sessions", "gte", { value: 20 })] },
    { label: "system eq $sessions", filters: [c("$sessions", "eq", { value: 3 })] },
    {
      label: "system range $sessions",
      filters: [c("$sessions", "range", { value1: 5, value2: 8 })],
    },
    { label: "system lt_or_unknown $sessions", filters: [c("$sessions", "lt_or_unknown", { value: 2 })] },
    // Dates.
    { label: "system daysless $last_seen", filters: [c("$last_seen", "daysless", { value: 3 })] },
    { label: "system daysmore $last_seen", filters: [c("$last_seen", "daysmore", { value: 300 })] },
    {
      label: "system date_range $last_contacted",
      filters: [c("$last_contacted", "date_range", { value1: daysAgo(40), value2: daysAgo(30) })],
    },
    { label: "system date_lt $last_reply", filters: [c("$last_reply", "date_lt", { value: daysAgo(150) })] },
    // Custom props: every value type.
    { label: "custom str_contains company", filters: [c("company", "str_contains", { value: "tech" })] },
    { label: "custom str_starts company", filters: [c("company", "str_starts", { value: "glo" })] },
    { label: "custom str_eq plan", filters: [c("plan", "str_eq", { value: "Enterprise" })] },
    { label: "custom str_neq plan", filters: [c("plan", "str_neq", { value: "free" })] },
    { label: "custom str_ncontains company", filters: [c("company", "str_ncontains", { value: "a" })] },
    { label: "custom known company", filters: [c("company", "known")] },
    { label: "custom gt mrr", filters: [c("mrr", "gt", { value: 3000 })] },
    { label: "custom range mrr", filters: [c("mrr", "range", { value1: 40, value2: 60 })] },
    { label: "custom daysless signed_up", filters: [c("signed_up", "daysless", { value: 7 })] },
    {
      label: "custom date_range signed_up",
      filters: [c("signed_up", "date_range", { value1: daysAgo(400), value2: daysAgo(380) })],
    },
    { label: "custom bool_true beta", filters: [c("beta", "bool_true")] },
    { label: "custom list_contains interests", filters: [c("interests", "list_contains", { value: "api" })] },
    {
      label: "custom list_ncontains interests",
      filters: [c("interests", "list_ncontains", { value: "api" })],
    },
    // Events (the per-user summaries).
    {
      label: "event count ≥ 2 + sort by it",
      filters: [c(checkoutCount, "gte", { value: 2 })],
      sort: { prop: checkoutCount, order: "desc" },
    },
    { label: "event count ≥ 2", filters: [c(checkoutCount, "gte", { value: 2 })] },
    {
      label: "event count lt_or_unknown 1 (never did it)",
      filters: [c(ev("started_trial", "count"), "lt_or_unknown", { value: 1 })],
    },
    {
      label: "event last daysless 2",
      filters: [c(ev("viewed_pricing", "last"), "daysless", { value: 2 })],
    },
    {
      label: "event first date_lt",
      filters: [c(ev("signed_in", "first"), "date_lt", { value: daysAgo(600) })],
    },
    // Tags, segments, groups.
    { label: "tag (frequent)", filters: [c("$tag", "tag", { value: "customer" })] },
    { label: "tag (rare)", filters: [c("$tag", "tag", { value: "investor" })] },
    { label: "in_segment", filters: [c("$segment", "in_segment", { value: BENCH_SEGMENT.name })] },
    {
      label: "nested or/and",
      filters: {
        type: "or",
        filters: [
          c("company", "str_contains", { value: "dyne" }),
          {
            type: "and",
            filters: [c("$country", "str_eq", { value: "Germany" }), c("$sessions", "gte", { value: 10 })],
          },
          c("$tag", "tag", { value: "vip" }),
        ],
      },
    },
  ];
}
