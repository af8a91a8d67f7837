/** The reports recomputed in TypeScript from a generated history (testing.ts), for the API tests. */
export interface Hist {
  tz: string;
  admins: { id: bigint; name: string }[];
  channels: bigint[];
  /** `assignee`: the conversation's assignee at creation. */
  convs: { id: bigint; created: number; channel: bigint | null; assignee: bigint | null }[];
  /** `assignee`: whom an `assigned` part assigned the conversation to (null: unassigned). */
  parts: {
    conv: bigint;
    type: string;
    at: number;
    admin: bigint | null;
    id: bigint;
    assignee?: bigint | null;
  }[];
  users: { created: number; lead: boolean }[];
}

export interface Filters {
  from: string;
  to: string;
  operator?: bigint;
  channel?: bigint;
}

function localParts(tz: string) {
  const f = new Intl.DateTimeFormat("en-US", {
    timeZone: tz,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    weekday: "short",
    hourCycle: "h23",
  });
  return (t: number) => {
    const o = Object.fromEntries(f.formatToParts(new Date(t)).map((x) => [x.type, x.value]));
    const weekday = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"].indexOf(o.weekday!) + 1;
    return { day: `${o.year}-${o.month}-${o.day}`, hour: Number(o.hour), weekday };
  };
}

/** PostgreSQL's percentile_cont: linear interpolation between the closest ranks. */
export function percentileCont(xs: number[], p: number): number | null {
  if (!xs.length) return null;
  const s = [...xs].sort((a, b) => a - b);
  const pos = p * (s.length - 1);
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return s[lo]! + (s[hi]! - s[lo]!) * (pos - lo);
}

function days(from: string, to: string): string[] {
  const out: string[] = [];
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= Date.parse(`${to}T00:00:00Z`); t += 86_400_000)
    out.push(new Date(t).toISOString().slice(0, 10));
  return out;
}

export function expectedReports(h: Hist, f: Filters) {
  const local = localParts(h.tz);
  const inRange = (t: number) => {
    const d = local(t).day;
    return d >= f.from && d <= f.to;
  };
  const conv = new Map(h.convs.map((c) => [c.id, c]));
  const passes = (id: bigint) => f.channel === undefined || conv.get(id)!.channel === f.channel;
  // The operator filter follows who did the work at the time (lib/reports/range.ts workFilter).
  const mine = (op: bigint | null) => f.operator === undefined || op === f.operator;
  const partsOf = (id: bigint) => h.parts.filter((p) => p.conv === id);
  const byTime = (a: { at: number; id: bigint }, b: { at: number; id: bigint }) =>
    a.at - b.at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  const assignments = (id: bigint) =>
    partsOf(id)
      .filter((p) => p.type === "assigned")
      .sort(byTime);
  const firstOwner = (id: bigint) =>
    conv.get(id)!.assignee ?? assignments(id).find((p) => p.assignee != null)?.assignee ?? null;
  const assigneeAt = (p: { conv: bigint; at: number; id: bigint }) => {
    const before = assignments(p.conv).filter((a) => byTime(a, p) <= 0);
    return before.length ? (before[before.length - 1]!.assignee ?? null) : conv.get(p.conv)!.assignee;
  };
  const closes = h.parts.filter(
    (p) => p.type === "closed" && inRange(p.at) && passes(p.conv) && mine(p.admin),
  );
  // First responses of conversations started in the range (operator filter applied by the caller).
  const firstResponses = (useOperator: boolean) =>
    h.convs
      .filter((c) => inRange(c.created) && passes(c.id))
      .flatMap((c) => {
        const ps = partsOf(c.id);
        const asked = Math.min(...ps.filter((p) => p.type === "reply_user").map((p) => p.at));
        if (!Number.isFinite(asked)) return [];
        const answers = ps
          .filter((p) => p.type === "reply_admin" && p.at >= asked)
          .sort((a, b) => a.at - b.at || Number(a.id - b.id));
        const a = answers[0];
        return a ? [{ day: local(c.created).day, admin: a.admin, secs: (a.at - asked) / 1000 }] : [];
      })
      .filter((x) => !useOperator || mine(x.admin));
  const fr = firstResponses(true);
  const byDay = days(f.from, f.to);

  const conversations = byDay.map((day) => ({
    day,
    started: h.convs.filter(
      (c) => passes(c.id) && mine(firstOwner(c.id)) && inRange(c.created) && local(c.created).day === day,
    ).length,
    closed: closes.filter((p) => local(p.at).day === day).length,
  }));
  const responseTimes = byDay.map((day) => {
    const a = fr.filter((x) => x.day === day).map((x) => x.secs);
    const b = closes
      .filter((p) => local(p.at).day === day)
      .map((p) => (p.at - conv.get(p.conv)!.created) / 1000);
    return {
      day,
      first_response_count: a.length,
      first_response_median: percentileCont(a, 0.5),
      first_response_p90: percentileCont(a, 0.9),
      close_count: b.length,
      close_median: percentileCont(b, 0.5),
      close_p90: percentileCont(b, 0.9),
    };
  });
  const closeSecs = closes.map((p) => (p.at - conv.get(p.conv)!.created) / 1000);
  const summary = (xs: number[]) => ({
    count: xs.length,
    median: percentileCont(xs, 0.5),
    average: xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null,
  });
  const responseTimesSummary = {
    first_response: summary(fr.map((x) => x.secs)),
    close: summary(closeSecs),
  };
  const busiest = [];
  const msgs = h.parts
    .filter((p) => p.type === "reply_user" && inRange(p.at) && passes(p.conv) && mine(assigneeAt(p)))
    .map((p) => local(p.at));
  for (let weekday = 1; weekday <= 7; weekday++)
    for (let hour = 0; hour < 24; hour++)
      busiest.push({
        weekday,
        hour,
        messages: msgs.filter((m) => m.weekday === weekday && m.hour === hour).length,
      });

  const frAll = firstResponses(false);
  const operators = h.admins
    .filter((a) => f.operator === undefined || a.id === f.operator)
    .map((a) => {
      const replies = h.parts.filter(
        (p) => p.type === "reply_admin" && p.admin === a.id && inRange(p.at) && passes(p.conv),
      );
      const mine = frAll.filter((x) => x.admin === a.id).map((x) => x.secs);
      return {
        admin: Number(a.id),
        name: a.name,
        conversations: new Set(replies.map((p) => p.conv)).size,
        replies: replies.length,
        first_response_count: mine.length,
        first_response_median: percentileCont(mine, 0.5),
      };
    })
    .filter((o) => o.replies > 0 || o.first_response_count > 0)
    .sort((x, y) => y.replies - x.replies || x.admin - y.admin);
  const leads = byDay.map((day) => ({
    day,
    leads: h.users.filter((u) => u.lead && local(u.created).day === day).length,
  }));
  return {
    conversations,
    response_times: responseTimes,
    busiest_hours: busiest,
    operators,
    leads,
    response_times_summary: responseTimesSummary,
  };
}
