import { describe, expect, it } from "vitest";
import { v1PageParams, v2PageParams } from "../../api/pagination";
import { ACCESS_TTL_SECONDS, REFRESH_TTL_SECONDS } from "../../auth/jwt-config";
import { SCOPE_DESCRIPTIONS, SCOPES } from "../../auth/scopes";
import { CSRF_HEADER } from "../../auth/sessions";
import { routes } from "../../compose/catalog";
import { COND_TYPES, conditionTypesFor } from "../../leads/filter-grammar";
import { parseFilters } from "../../leads/filters";
import { MAX_REACHABLE as LEADS_MAX_REACHABLE } from "../../leads/list-leads";
import { SYSTEM_PROPS } from "../../user-model/system-props";
import { DEFAULT_VERSION, endpointHref, endpointsOf } from "../reference";
import { asUserEndpoints, scopeRows, sessionOnlyEndpoints, TOKENS } from "./auth";
import { CSRF_HEADER_NAME } from "./calls";
import { conditionTable, FILTER_EXAMPLES, filterErrors, propertyTable } from "./leads-filters";
import {
  MAX_REACHABLE,
  pagedLists,
  pagingParams,
  V1_META,
  V1_PARAMS,
  V2_META,
  V2_PARAMS,
  workedBorder,
} from "./pagination";

/**
 * The authentication, pagination and leads filter guides hold to the code: each table is the code's own list, each
 * figure the constant the server applies (their pages and curl examples are checked in guides.test.ts).
 */
describe("the authentication guide", () => {
  it("lists every scope with its description, and the endpoints that need it", () => {
    const rows = scopeRows();
    expect(rows.map((r) => r.scope)).toEqual([...SCOPES]);
    const docs = endpointsOf(DEFAULT_VERSION);
    for (const r of rows) {
      expect(r.description).toBe(SCOPE_DESCRIPTIONS[r.scope]);
      const needing = docs.filter(
        (d) => d.scopes.includes(r.scope) || (r.scope === "as-user" && d.asUserWith),
      );
      expect(r.endpoints.map((e) => e.href).sort(), r.scope).toEqual(needing.map(endpointHref).sort());
    }
  });

  it("lists exactly the endpoints whose spec is session-only, and the as-user ones", () => {
    const v2 = routes.filter((e) => e.spec.v2 || e.spec.v1);
    const label = (e: (typeof routes)[number]) => `${e.spec.method} ${e.spec.path}`;
    expect(
      sessionOnlyEndpoints()
        .map((l) => l.label)
        .sort(),
    ).toEqual(
      v2
        .filter((e) => e.spec.sessionOnly)
        .map(label)
        .sort(),
    );
    expect(sessionOnlyEndpoints().length).toBeGreaterThan(0);
    expect(
      asUserEndpoints()
        .map((l) => l.label)
        .sort(),
    ).toEqual(
      v2
        .filter((e) => e.spec.asUserWith && e.spec.v2)
        .map(label)
        .sort(),
    );
    expect(CSRF_HEADER_NAME.toLowerCase()).toBe(CSRF_HEADER);
  });

  it("states the token lifetimes of the code", () => {
    expect(TOKENS.accessSeconds).toBe(ACCESS_TTL_SECONDS);
    expect(TOKENS.refreshDays * 86_400).toBe(REFRESH_TTL_SECONDS);
  });
});

describe("the pagination guide", () => {
  it("documents the parameters and meta lib/api/pagination.ts reads and writes", () => {
    expect(pagingParams("v2", V2_PARAMS).map((p) => p.name)).toEqual(Object.keys(v2PageParams));
    expect(pagingParams("v1", V1_PARAMS).map((p) => p.name)).toEqual(Object.keys(v1PageParams));
    expect(V2_META).toEqual(["next_before_position", "next_after_position"]);
    expect(V1_META).toEqual(["next_after"]);
    const b = workedBorder();
    expect(b.v2End.next_before_position).toBeNull();
    expect(b.v1End.next_after).toBeNull();
    expect(b.v1More.next_after).toBe("1715680800.123456_1042");
  });

  it("lists the lists that page, and the leads' reachable rows as the service limits them", () => {
    for (const slug of ["v1", "v2"] as const) {
      const lists = pagedLists(slug);
      expect(lists.map((l) => l.label)).toContain("GET /conversations/{id}/parts");
      expect(lists.find((l) => l.label === "GET /apps/{id}/users")?.kind).toBe("offset");
    }
    expect(MAX_REACHABLE).toBe(LEADS_MAX_REACHABLE);
    const offset = pagingParams("v2", ["offset", "limit"]).find((p) => p.name === "offset")!;
    expect(offset.limits.join(" ")).toContain(String(LEADS_MAX_REACHABLE));
  });
});

describe("the leads filter guide", () => {
  it("has examples the server's parser accepts", () => {
    for (const e of FILTER_EXAMPLES) expect(() => parseFilters(e.filters), e.id).not.toThrow();
  });

  it("has tables read from the grammar: every condition type, each property kind's own list", () => {
    const listed = new Set(conditionTable().flatMap((r) => r.types));
    expect([...listed].sort()).toEqual([...COND_TYPES].sort());
    for (const r of propertyTable()) expect(r.types).toEqual(conditionTypesFor(r.kind));
    // Every system prop is in some row.
    const names = propertyTable()
      .map((r) => r.names)
      .join(", ");
    for (const n of Object.keys(SYSTEM_PROPS)) expect(names).toContain(n);
  });

  it("shows the errors the parser gives its bad examples, by path under filters", () => {
    const errors = filterErrors();
    expect(errors.length).toBeGreaterThan(2);
    for (const e of errors) {
      expect(e.status).toBe(400);
      for (const k of Object.keys(e.errorFields)) expect(k).toMatch(/^filters(\.|$)/);
    }
  });
});
