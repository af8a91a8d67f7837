import type { Db } from "../db/client";
import { forgetOperatorsOnline } from "../admins/operators-seen";
import { operatorsNow } from "../messenger/activity";
import { MESSENGER_CHANNEL, type MessengerEnvelope } from "../contract/socket";
import type { LogRow, RelayServer } from "./log-rows";

/** The room of an app's subscribed visitor sockets: what concerns every visitor of the app (who can answer). */
export const messengerAppRoom = (appId: bigint) => `messenger-app:${appId}`;

const AVAILABILITY = "admin_availability";

/**
 * An operator's availability changed: an `admin_availability` row of the log, which every instance tails. This
 * instance forgets what it knew of the app's operators (its heartbeats answer anew) and tells its own visitor
 * sockets of the app who can answer now, so an open messenger shows Away, or the team back, at once rather than at
 * its next heartbeat.
 */
export function announceOperators(db: Db, io: RelayServer | undefined, row: LogRow): void {
  if (row.type !== AVAILABILITY || !io) return;
  const app = row.channel.slice(AVAILABILITY.length + 1);
  if (!/^\d{1,19}$/.test(app)) return;
  const appId = BigInt(app);
  forgetOperatorsOnline(appId);
  void operatorsNow({ db }, appId)
    .then((o) => {
      const m: MessengerEnvelope = {
        id: null,
        channel: MESSENGER_CHANNEL,
        type: "messenger_status",
        message: { operators_online: o.online, opens_at: o.opensAt?.toISOString() ?? null },
        time: Date.now() / 1000,
      };
      io.local.to(messengerAppRoom(appId)).emit("message", m);
    })
    // The database did not answer: the visitors' next heartbeat tells them.
    .catch(() => undefined);
}
