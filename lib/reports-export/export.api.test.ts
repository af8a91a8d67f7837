import { describe, expect } from "vitest";
import { it } from "../testing/fixture";
import { client } from "../testing/http";
import { makeSession } from "../testing/factories";
import { fails, ok } from "../conversations/testing";
import { BREAKDOWN_DAY as DAY, breakdownHistory } from "../reports/testing";
import { EXPORT_COLUMNS, EXPORT_REPORTS } from "./export-csv";

/** A minimal CSV reader for the test (quoted cells, doubled quotes, CRLF). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted && ch === '"' && text[i + 1] === '"') {
      cell += '"';
      i++;
    } else if (ch === '"') quoted = !quoted;
    else if (quoted || (ch !== "," && ch !== "\r" && ch !== "\n")) cell += ch;
    else if (ch === ",") {
      row.push(cell);
      cell = "";
    } else if (ch === "\n") {
      rows.push([...row, cell]);
      row = [];
      cell = "";
    }
  }
  return rows;
}

describe("GET /apps/{id}/reports/export", () => {
  it("holds every report of the range in one table, durations in seconds", async ({ server: s, app: a }) => {
    ok(await a.api.postForm(`/api/apps/${a.app.id}/settings`, { time_zone: "UTC" }));
    const { A, X } = await breakdownHistory(s, a);
    // A rating of the first conversation (closed by A), so that the CSAT rows are there too.
    const c1 = await s.db.conversation.findFirstOrThrow({
      where: { appId: a.app.id, channelId: X.id, tags: { has: "vip" } },
    });
    await s.db.conversationRating.create({
      data: {
        conversationId: c1.id,
        appId: a.app.id,
        userId: c1.userId,
        adminId: A,
        requestedAt: new Date(`${DAY}T10:20:00Z`),
        rating: 5,
        comment: "=Quick, thanks",
        ratedAt: new Date(`${DAY}T10:30:00Z`),
        channel: "messenger",
      },
    });
    // As the panel downloads it: an operator's session.
    const op = client(s, await makeSession(s.db, a.admin.id));
    const res = await op.get(`/api/apps/${a.app.id}/reports/export`, { from: DAY, to: DAY });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/csv/);
    expect(res.headers.get("content-disposition")).toBe(
      `attachment; filename="reports-${a.app.id}-${DAY}-${DAY}.csv"`,
    );
    const [header, ...rows] = parseCsv(res.text);
    expect(header).toEqual([...EXPORT_COLUMNS]);
    const of = (report: string) =>
      rows
        .filter((r) => r[0] === report)
        .map((r) => Object.fromEntries(header!.flatMap((h, i) => (r[i] ? [[h, r[i]]] : []))));
    expect([...new Set(rows.map((r) => r[0]))]).toEqual([...EXPORT_REPORTS]);
    expect(rows.every((r) => r.length === header!.length)).toBe(true);
    expect(of("range")).toEqual([
      { report: "range", day: DAY, key: "UTC", name: `${DAY} to ${DAY}, days in UTC` },
    ]);
    expect(of("conversations")).toEqual([{ report: "conversations", day: DAY, started: "4", closed: "2" }]);
    // 300 s, 240 s, 60 s; closes after 1200 s and 1800 s.
    expect(of("response_times_range")).toEqual([
      {
        report: "response_times_range",
        first_responses: "3",
        first_response_median_seconds: "240",
        first_response_average_seconds: "200",
        closes: "2",
        close_median_seconds: "1500",
        close_average_seconds: "1500",
      },
    ]);
    expect(of("busiest_hours")).toHaveLength(168);
    expect(of("busiest_hours").filter((c) => c.messages !== "0")).toHaveLength(3);
    expect(of("breakdown_channel")[0]).toEqual({
      report: "breakdown_channel",
      key: String(X.id),
      name: "Email desk",
      started: "2",
      closed: "1",
      first_responses: "2",
      first_response_median_seconds: "270",
    });
    expect(of("breakdown_tag").map((r) => r.key ?? null)).toEqual(["billing", "vip", null]);
    expect(of("csat_range")).toEqual([
      { report: "csat_range", requests: "1", ratings: "1", good: "1", score: "1", response_rate: "1" },
    ]);
    expect(of("csat_operators")).toMatchObject([{ key: String(A), ratings: "1" }]);
    // The visitor's comment is text, never a formula.
    expect(of("csat_comments")).toMatchObject([
      { key: String(c1.id), rating: "5", comment: "'=Quick, thanks", rated_at: `${DAY}T10:30:00.000Z` },
    ]);
    expect(of("operators").map((o) => o.key)).toContain(String(A));
  });

  it("checks the range as every report does", async ({ app: a }) => {
    fails(
      await a.api.get(`/api/apps/${a.app.id}/reports/export`, { from: DAY, to: "2026-01-01" }),
      400,
      "ValidationError",
      "to",
    );
  });
});
