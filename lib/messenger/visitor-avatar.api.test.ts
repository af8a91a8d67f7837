import { describe, expect } from "vitest";
import { it } from "../testing/fixture";
import { errorOf, ok } from "../users/testing";
import { bootTestVisitor, warmUpVisitorApi } from "./testing";

it.beforeAll(warmUpVisitorApi);

const PIXEL = "https://tracker.example.com/pixel.png";
type Sourced = { props: Record<string, unknown>; props_sources: Record<string, { type: string }> };

describe("avatars: a visitor cannot choose the URL operators' browsers load", () => {
  it("refuses $avatar from a visitor, by any operation, and writes nothing of the request", async ({
    server,
    app,
  }) => {
    const v = await bootTestVisitor(server, app);
    for (const op of ["update_or_create", "set_once"]) {
      const e = errorOf(
        await v.api.postJson("/api/v2/messenger/identify", {
          name: "Pat",
          operations: [{ op, key: "$avatar", value: PIXEL }],
        }),
        400,
        "ValidationError",
      );
      expect(e.error_fields?.["operations[0]"]).toMatch(/^\$avatar cannot be set by a visitor.*REST API/);
    }
    const row = await server.db.user.findUniqueOrThrow({ where: { id: BigInt(v.boot.visitor.id) } });
    expect(row).toMatchObject({ name: null, avatar: null });
  });

  it("records who set each avatar: the REST API (or the source it names) and imports", async ({
    server,
    app,
  }) => {
    const v = await bootTestVisitor(server, app);
    const id = v.boot.visitor.id;
    const read = async () =>
      ok<Sourced>(await app.api.get(`/api/v2/users/${id}`, { props: true, props_sources: true }));
    const setProps = (body: Record<string, unknown>) => app.api.postJson(`/api/v2/users/${id}/props`, body);
    ok(await setProps({ operations: [{ op: "update_or_create", key: "$avatar", value: PIXEL }] }));
    let user = await read();
    expect(user.props.$avatar).toBe(PIXEL);
    expect(user.props_sources.$avatar).toMatchObject({ type: "api", id: null });
    ok(
      await setProps({
        operations: [{ op: "update_or_create", key: "$avatar", value: `${PIXEL}?2` }],
        source: { type: "crm_sync" },
      }),
    );
    user = await read();
    expect(user.props_sources.$avatar).toMatchObject({ type: "crm_sync" });
    // The visitor's own writes of other props leave the avatar's source as it was.
    ok(await v.api.postJson("/api/v2/messenger/identify", { name: "Pat", email: "pat@example.test" }));
    user = await read();
    expect(user.props_sources.$avatar).toMatchObject({ type: "crm_sync" });
    expect(user.props_sources.$email).toMatchObject({ type: "messenger" });

    const email = `imported-${id}@example.test`;
    const csv = `$email;$name;$avatar\r\npat@example.test;Pat;${PIXEL}?3\r\n${email};New;${PIXEL}?4\r\n`;
    const job = ok<{ id: number }>(
      await server.call(`/api/v2/users/import?merge_field=%24email&delimiter=%3B`, {
        method: "POST",
        headers: { Authorization: `Token ${app.token}`, "Content-Type": "text/csv" },
        body: csv,
      }),
    );
    for (let done = false; !done;) {
      const j = ok<{ status: string }>(await app.api.get(`/api/v2/users/import/${job.id}`));
      expect(j.status).not.toBe("failed");
      done = j.status === "done";
      if (!done) await new Promise((r) => setTimeout(r, 100));
    }
    const rows = await server.db.user.findMany({
      where: { appId: BigInt(app.app.id), email: { in: ["pat@example.test", email] } },
      orderBy: { id: "asc" },
    });
    expect(rows.map((r) => [r.avatar, (r.propsSources as Sourced["props_sources"]).$avatar?.type])).toEqual([
      [`${PIXEL}?3`, "import"],
      [`${PIXEL}?4`, "import"],
    ]);
  });
});
