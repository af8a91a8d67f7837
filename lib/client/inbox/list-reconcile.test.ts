import { InfiniteQueryObserver, QueryClient } from "@tanstack/react-query";
import { afterEach, describe, expect, it } from "vitest";
import { queryKeys } from "../query-keys";
import { onBulkEnd } from "./bulk-realtime";
import { compareConversations, matchesList, type ListParams } from "./filters";
import { flattenConversations, type ConversationPages } from "./list-cache";
import { applyConversation, reconcileFetchedLists } from "./realtime";
import { conv } from "./testing";
import type { Conversation, Page } from "./types";

/**
 * The Inbox's list cache against a list whose rows change while it loads: a stand-in server holds the
 * conversations and answers keyset pages of 30 the way the list endpoint does, each page read when asked and
 * answered when the test lets it.
 */
const APP = "1";
const PARAMS: ListParams = { closed: false, delayed: false, tags: ["t"] };
const KEY = queryKeys.inbox.list(APP, PARAMS);

function fakeServer(rows: Conversation[]) {
  const db = new Map(rows.map((c) => [String(c.id), c]));
  let gate: Promise<void> | null = null;
  let eventId = 100;
  const read = (after: (number | string)[] | null): Page<Conversation> => {
    const all = [...db.values()].filter((c) => matchesList(c, PARAMS, 0, () => undefined));
    all.sort(compareConversations);
    const from = after
      ? all.findIndex(
          (c) => compareConversations(c, conv({ id: after[1], last_update: Number(after[0]) })) > 0,
        )
      : 0;
    const items = from < 0 ? [] : all.slice(from, from + 30);
    const last = items.at(-1);
    return { items, next: last && from + 30 < all.length ? [last.last_update, last.id] : null };
  };
  return {
    queryFn: async ({ pageParam }: { pageParam: (number | string)[] | null }) => {
      // Read now, answered when the gate opens: what a request in flight while rows change brings.
      const page = read(pageParam);
      if (gate) await gate;
      return page;
    },
    hold() {
      let open = () => {};
      gate = new Promise<void>((r) => (open = r));
      return () => {
        gate = null;
        open();
      };
    },
    /** Changes a row and returns the socket message the server publishes after its commit. */
    change(id: Conversation["id"], patch: Partial<Conversation>) {
      const c = { ...db.get(String(id))!, ...patch };
      db.set(String(id), c);
      return { id: ++eventId, message: c };
    },
  };
}

const clients: QueryClient[] = [];
function setUp(n: number) {
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  clients.push(qc);
  const rows = Array.from({ length: n }, (_, k) => conv({ tags: ["t"], last_update: 1000 - k }));
  const server = fakeServer(rows);
  const observer = new InfiniteQueryObserver(qc, {
    queryKey: KEY,
    queryFn: server.queryFn,
    initialPageParam: null as (number | string)[] | null,
    getNextPageParam: (last: Page<Conversation>) => last.next ?? undefined,
    staleTime: 5 * 60_000,
  });
  const unsubscribe = observer.subscribe(() => {});
  const stop = reconcileFetchedLists(qc, APP);
  const shown = () =>
    flattenConversations(qc.getQueryData<ConversationPages>(KEY))
      .filter((c) => !c.closed)
      .map((c) => c.id);
  return { qc, rows, server, observer, shown, unsubscribe, stop };
}

afterEach(() => {
  for (const qc of clients.splice(0)) qc.clear();
});

const settle = () => new Promise((r) => setTimeout(r, 0));

describe("a list converges to the server's rows whatever order answers and messages come in", () => {
  it("a next page in flight while the loaded rows are closed: its answer does not bring them back", async () => {
    const { qc, rows, server, observer, shown } = setUp(40);
    await observer.refetch();
    expect(shown()).toHaveLength(30);
    const open = server.hold();
    const more = observer.fetchNextPage();
    await settle();
    // Every row is closed (a bulk job) while page two is on its way; the messages patch the loaded page.
    for (const c of rows) {
      const msg = server.change(c.id, { closed: true, last_update: c.last_update + 1 });
      applyConversation(qc, APP, msg.message, msg.id);
    }
    expect(shown()).toEqual([]);
    open();
    await more;
    // fetchNextPage kept page one as it was when it started, and page two was read before the closes.
    expect(shown()).toEqual([]);
  });

  it("a row's message that comes before the page bringing it: the page is brought up to it", async () => {
    const { qc, rows, server, observer, shown } = setUp(40);
    await observer.refetch();
    const open = server.hold();
    const more = observer.fetchNextPage();
    await settle();
    const beyond = rows.slice(30);
    for (const c of beyond) {
      const msg = server.change(c.id, { closed: true, last_update: c.last_update + 1 });
      applyConversation(qc, APP, msg.message, msg.id);
    }
    open();
    await more;
    expect(shown()).toEqual(rows.slice(0, 30).map((c) => c.id));
  });

  it("a message older than one applied (a replay) does not put a closed row back", async () => {
    const { qc, rows, server, observer, shown } = setUp(5);
    await observer.refetch();
    const first = rows[0]!;
    const tagged = server.change(first.id, { tags: ["t", "x"], last_update: 2000 });
    const closed = server.change(first.id, { closed: true, last_update: 2001 });
    applyConversation(qc, APP, tagged.message, tagged.id);
    applyConversation(qc, APP, closed.message, closed.id);
    expect(shown()).not.toContain(first.id);
    applyConversation(qc, APP, tagged.message, tagged.id);
    expect(shown()).not.toContain(first.id);
  });

  it("a bulk job's end reads the list again, cancelling a read in flight, with no row's message at all", async () => {
    const { qc, rows, server, observer, shown } = setUp(40);
    await observer.refetch();
    const open = server.hold();
    const more = observer.fetchNextPage();
    await settle();
    // The rows change on the server, and this panel hears of none of them: only of the job's end.
    for (const c of rows) server.change(c.id, { closed: true, last_update: c.last_update + 1 });
    onBulkEnd({ message: { id: 9, app: Number(APP), status: "done" } }, { queryClient: qc });
    open();
    await more.catch(() => undefined);
    await expect.poll(() => qc.getQueryState(KEY)?.fetchStatus).toBe("idle");
    expect(shown()).toEqual([]);
  });
});
