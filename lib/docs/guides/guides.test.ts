import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createElement, Fragment, type ReactElement, type ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { appIdParams, SESSION_ONLY_MESSAGE } from "../../api/access";
import { SCOPES } from "../../auth/scopes";
import { SESSION_COOKIE } from "../../auth/sessions";
import { EXAMPLE_ORIGIN } from "../request";
import { AUTH_CALLS } from "./auth";
import { CSRF_HEADER_NAME, curlOf, endpointFor, requestOf, sentValues, type GuideCall } from "./calls";
import { FILTER_CALLS, filterErrors } from "./leads-filters";
import { MAX_REACHABLE, PAGINATION_CALLS } from "./pagination";
import { webhookKind, WEBHOOK_KINDS } from "../../eventlog/webhook-kinds";
import { retryDelay } from "../../webhooks/deliveries";
import { DEFAULTS } from "../../webhooks/dispatcher";
import { API_METHODS } from "../../../messenger/queue";
import { CHANNEL_KINDS, type SocketEnvelope } from "../../contract/socket";
import { visitorRealtimeSchemas } from "../../messenger/visitor-realtime-schemas";
import { readSocketMessage } from "../../realtime/contract";
import { guideLinks, searchEntries } from "../navigation";
import { DEFAULT_VERSION } from "../reference";
import { searchFor } from "../search";
import { GUIDES, guideBySlug } from "./catalog";
import { CALLBACKS, methods, snippet } from "./messenger";
import { HASH_EXAMPLES } from "../../messenger/hash-examples";
import { channelDocs, messengerChannel } from "./realtime";
import { retrySchedule, sampleSignature, webhookEvents } from "./webhooks";

const ROOT = path.resolve(__dirname, "../../..");

describe("the guides", () => {
  it("has a page and a model for every guide the navigation lists", () => {
    const links = guideLinks();
    expect(links.map((l) => l.slug)).toEqual(GUIDES.map((g) => g.slug));
    for (const l of links) {
      expect(guideBySlug(l.slug), l.slug).toBeDefined();
      const page = path.join(ROOT, "app/docs/guides", l.slug, "page.tsx");
      expect(existsSync(page), page).toBe(true);
      // The page renders this guide's frame, not another's.
      expect(readFileSync(page, "utf8")).toContain(`const SLUG = "${l.slug}"`);
    }
  });

  it("lets the search find a guide by its title first, and by a keyword", () => {
    const entries = searchEntries(DEFAULT_VERSION);
    expect(searchFor(entries, "webhooks")[0]).toMatchObject({ kind: "guide", href: "/docs/guides/webhooks" });
    expect(searchFor(entries, "identity verification")[0]?.href).toBe("/docs/guides/messenger-js-api");
    expect(searchFor(entries, "carrotquest").map((h) => h.href)).toContain("/docs/guides/messenger-js-api");
  });
});

describe("the Messenger JS API guide", () => {
  it("shows the snippet Settings → Messenger renders, with every method its stub queues", () => {
    const s = snippet();
    expect(s).toContain('<script async src="https://');
    for (const m of API_METHODS) expect(s).toContain(`"${m}"`);
    expect(methods().map((m) => m.name)).toEqual([...API_METHODS]);
  });

  it("documents exactly the callbacks the loader and the frame emit", () => {
    const dirs = ["messenger", "messenger/frame"].map((d) => path.join(ROOT, d));
    const emitted = new Set<string>();
    for (const dir of dirs)
      for (const f of readdirSync(dir).filter((n) => n.endsWith(".ts") && !n.endsWith(".test.ts")))
        for (const line of readFileSync(path.join(dir, f), "utf8").split("\n")) {
          // socket.emit is the socket protocol's, not the page's callbacks.
          if (!/\bemit\(/.test(line) || /socket\.emit\(/.test(line)) continue;
          // The first argument only: `emit(m.name, …)` relays a name the frame chose, already counted there.
          for (const [, first] of line.matchAll(/\bemit\(([^,)]*)/g))
            for (const [, name] of (first ?? "").matchAll(/"([a-z_]+)"/g)) emitted.add(name!);
        }
    expect(emitted.size).toBeGreaterThan(0);
    expect(CALLBACKS.map((c) => c.name).sort()).toEqual([...emitted].sort());
  });

  it("has the server-side hash in the four languages", () => {
    expect(HASH_EXAMPLES.map((e) => e.label)).toEqual(["Node.js", "Python", "PHP", "Ruby"]);
  });
});

describe("the webhooks guide", () => {
  const events = webhookEvents();

  it("documents every subscribable kind and the test delivery", () => {
    expect(events.map((e) => e.kind)).toEqual([...WEBHOOK_KINDS, "test"]);
  });

  it("reads each kind from the row type and payload the event log maps to it", () => {
    for (const e of events) expect(webhookKind(e.logType, undefined, e.example), e.kind).toBe(e.kind);
  });

  it("has a payload example its schema accepts, through the JSON body the dispatcher sends", () => {
    for (const e of events) {
      const body = JSON.parse(e.body) as { type: string; data: unknown };
      expect(body.type).toBe(e.kind);
      const parsed = e.schema.safeParse(body.data);
      expect(parsed.success, `${e.kind}: ${parsed.error?.message}`).toBe(true);
      expect(e.fields.length, e.kind).toBeGreaterThan(0);
    }
  });

  it("states the retry waits the dispatcher uses, within its jitter", () => {
    for (const r of retrySchedule()) {
      const ms = retryDelay(r.attempt, DEFAULTS);
      expect(ms, `after failure ${r.attempt}`).toBeGreaterThanOrEqual(r.seconds * 900);
      expect(ms, `after failure ${r.attempt}`).toBeLessThanOrEqual(r.seconds * 1100);
    }
  });

  it("gives a worked signature an independent HMAC agrees with", async () => {
    const { createHmac } = await import("node:crypto");
    const s = sampleSignature();
    const hex = createHmac("sha256", s.secret).update(`${s.timestamp}.${s.body}`).digest("hex");
    expect(s.header).toBe(`sha256=${hex}`);
  });
});

describe("the real-time guide", () => {
  it("documents every channel kind, each example read back by the panel's own parser", () => {
    const channels = channelDocs();
    expect(channels.map((c) => c.kind)).toEqual([...CHANNEL_KINDS]);
    for (const c of [...channels, messengerChannel()])
      for (const t of c.types) {
        const read = readSocketMessage(JSON.parse(JSON.stringify(t.envelope)) as SocketEnvelope);
        expect("msg" in read ? "ok" : read.problem, `${c.kind} ${t.type}`).toBe("ok");
      }
  });

  it("has every messenger message type", () => {
    expect(messengerChannel().types.map((t) => t.type)).toEqual(Object.keys(visitorRealtimeSchemas));
  });
});

/** Every runnable call of the new guides, by guide. */
const CALLS: Record<string, Record<string, GuideCall>> = {
  authentication: AUTH_CALLS,
  pagination: PAGINATION_CALLS,
  "leads-filters": FILTER_CALLS,
};

/** A guide page's output as the server renders it (its frame, the docs shell, is the reference's and tested there). */
async function renderGuide(slug: string): Promise<string> {
  const page = (await import(`../../../app/docs/guides/${slug}/page.tsx`)) as { default: () => ReactElement };
  const frame = page.default() as ReactElement<{ children: ReactNode }>;
  return renderToStaticMarkup(createElement(Fragment, null, frame.props.children));
}

describe.each(Object.entries(CALLS))("the %s guide's curl examples", (slug, calls) => {
  it.each(Object.entries(calls))(
    "%s is a call the catalog serves, with parameters its schema accepts",
    (_, call) => {
      const d = endpointFor(call);
      const values = sentValues(call);
      // The edge puts the caller's app in for `$self_app` before the schema sees it (lib/api/endpoint.ts).
      for (const k of appIdParams(d.form.params)) if (values[k] === "$self_app") values[k] = "1";
      const parsed = d.form.params.safeParse(values);
      expect(parsed.error?.issues ?? [], `${call.method} ${call.path}`).toEqual([]);
      const curl = curlOf(call);
      expect(curl).toContain(`${EXAMPLE_ORIGIN}${d.version.basePath}`);
      // A session-only endpoint is shown with the session; no example sends a key where a key is refused.
      if (d.sessionOnly) expect(call.credential, `${call.method} ${call.path}`).toBe("session");
      if (call.credential === "session") {
        expect(curl).toContain(`Cookie: ${SESSION_COOKIE}=`);
        if (call.method !== "GET") expect(curl).toContain(`${CSRF_HEADER_NAME}: `);
      }
      if (call.credential === "none") expect(curl).not.toMatch(/Authorization|Cookie/);
    },
  );

  it("renders, with every curl example on the page", async () => {
    const html = await renderGuide(slug);
    for (const call of Object.values(calls)) {
      const url = requestOf(call).url.replace(EXAMPLE_ORIGIN, "");
      expect(html, `${call.method} ${call.path}`).toContain(url.replace(/&/g, "&amp;"));
    }
  });
});

describe("the new guides' pages", () => {
  it("show the generated tables and errors", async () => {
    const auth = await renderGuide("authentication");
    for (const s of SCOPES) expect(auth).toContain(`id="scope-${s}"`);
    expect(auth).toContain(SESSION_ONLY_MESSAGE.replace(/'/g, "&#x27;"));
    const filters = await renderGuide("leads-filters");
    for (const e of filterErrors()) expect(filters).toContain(Object.keys(e.errorFields)[0]!);
    const paging = await renderGuide("pagination");
    expect(paging).toContain(MAX_REACHABLE.toLocaleString("en"));
  });
});

describe("the new guides in the search", () => {
  it("finds each by its title first and by a keyword", () => {
    const entries = searchEntries(DEFAULT_VERSION);
    expect(searchFor(entries, "pagination")[0]?.href).toBe("/docs/guides/pagination");
    expect(searchFor(entries, "filtering leads")[0]?.href).toBe("/docs/guides/leads-filters");
    expect(searchFor(entries, "authentication")[0]?.href).toBe("/docs/guides/authentication");
    expect(searchFor(entries, "jwks").map((h) => h.href)).toContain("/docs/guides/authentication");
    expect(searchFor(entries, "paginate").map((h) => h.href)).toContain("/docs/guides/pagination");
  });
});
