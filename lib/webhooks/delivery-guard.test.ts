import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb, type TestDb } from "../db/testing";
import { makeApp } from "../testing/factories";
import { withEvents } from "../eventlog/append";
import { partEvent } from "../realtime/testing";
import { claimDue, recordAttempt, webhookBody, webhookMessageId } from "./deliveries";
import { DEFAULTS } from "./dispatcher";
import { sendWebhook } from "./send";
import { invalidateSubscriptions } from "../eventlog/webhook-state";
import { startReceiver, type Receiver } from "./testing";
import { checkWebhookUrl, type HostLookup } from "./url-guard";

// Names under .test never resolve for real: every address below comes from the injected resolver, and the only
// one a connection may go to is the receiver's loopback address.
const HOST = "hooks.example.test";

let t: TestDb;
let rcv: Receiver;
beforeAll(async () => {
  t = await createTestDb();
  rcv = await startReceiver();
});
afterAll(async () => {
  await rcv.close();
  await t.close();
});

/** A resolver answering `address` for HOST, counting its calls. */
const answering = (address: string) => {
  const calls: string[] = [];
  const lookup: HostLookup = (host) => {
    calls.push(host);
    return Promise.resolve(host === HOST ? [{ address, family: address.includes(":") ? 6 : 4 }] : []);
  };
  return { lookup, calls };
};

/** Queues one delivery to `url` and claims it, as the dispatcher does. */
const queued = async (url: string) => {
  const { app } = await makeApp(t.db);
  const sub = await t.db.webhookSubscription.create({
    data: { appId: app.id, url, events: ["conversation.user_replied"], secret: "whsec_test" },
  });
  invalidateSubscriptions(app.id);
  await withEvents(t.db, async (_tx, emit) => {
    emit(partEvent(app.id));
  });
  const claimed = (await claimDue(t.db, 100, 60_000)).filter((d) => d.subscriptionId === sub.id);
  expect(claimed).toHaveLength(1);
  return claimed[0]!;
};

const send = (d: Awaited<ReturnType<typeof queued>>, lookup: HostLookup, allowPrivate: boolean) =>
  sendWebhook({
    url: d.url,
    secret: d.secret,
    id: webhookMessageId(d.id),
    body: webhookBody(d),
    allowPrivate,
    lookup,
  });

describe("the address check at delivery time", () => {
  it("refuses a name that now resolves to loopback, though it was public when saved", async () => {
    const url = `http://${HOST}:${rcv.port}/hook`;
    await expect(checkWebhookUrl(url, false, answering("93.184.216.34").lookup)).resolves.toBeInstanceOf(URL);
    const d = await queued(url);
    const before = rcv.received.length;

    const outcome = await send(d, answering("127.0.0.1").lookup, false);
    expect(outcome).toMatchObject({ ok: false, status: null });
    expect(outcome.error).toMatch(/URL refused: .*private or reserved address \(127\.0\.0\.1\)/);
    // No retries left: the refusal is final and stays in the log.
    await recordAttempt(t.db, d, outcome, { ...DEFAULTS, retryWindowMs: 0 });
    const row = await t.db.webhookDelivery.findUniqueOrThrow({ where: { id: d.id } });
    expect(row).toMatchObject({ status: "failed", attempts: 1, lastResponseCode: null });
    expect(row.lastError).toMatch(/private or reserved/);
    expect(rcv.received.length).toBe(before);
  });

  it("refuses IPv6 spellings of loopback handed out by the resolver", async () => {
    const d = await queued(`http://${HOST}:${rcv.port}/hook`);
    for (const address of ["::ffff:127.0.0.1", "::ffff:0:7f00:1", "::7f00:1", "64:ff9b::7f00:1"]) {
      const outcome = await send(d, answering(address).lookup, false);
      expect(outcome.error, address).toMatch(/private or reserved/);
    }
  });

  it("connects to the address it checked, without resolving the name again", async () => {
    const d = await queued(`http://${HOST}:${rcv.port}/hook`);
    const { lookup, calls } = answering("127.0.0.1");
    const outcome = await send(d, lookup, true);
    expect(outcome).toMatchObject({ ok: true, status: 200 });
    // The system resolver does not know the name: the request can only have reached the checked address.
    expect(calls).toEqual([HOST]);
    expect(rcv.received.at(-1)?.headers["x-webhook-id"]).toBe(webhookMessageId(d.id));
  });
});
