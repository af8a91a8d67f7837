import { describe, expect, it } from "vitest";
import {
  appChannel,
  CHANNEL_KINDS,
  MESSENGER_CHANNEL,
  OPERATOR_KINDS,
  operatorChannel,
  parseChannel,
  TRANSIENT_KINDS,
  userChannel,
  WEBHOOK_ONLY_KINDS,
  type ChannelKind,
  type OperatorKind,
} from "../contract/socket";
import { parseSocketMessage, SOCKET_SCHEMAS } from "./contract";

const isOperatorKind = (k: ChannelKind): k is OperatorKind =>
  (OPERATOR_KINDS as readonly string[]).includes(k);

describe("the socket contract's kinds", () => {
  it("gives every kind of the log, and messenger, the schemas of its event types; and no other kind", () => {
    const kinds = [...CHANNEL_KINDS, ...WEBHOOK_ONLY_KINDS, MESSENGER_CHANNEL] as const;
    expect(Object.keys(SOCKET_SCHEMAS).sort()).toEqual([...kinds].sort());
    for (const kind of kinds) expect(Object.keys(SOCKET_SCHEMAS[kind]).length, kind).toBeGreaterThan(0);
    // Every kind of the log has one event type, named after it; the messenger's channel has its five.
    for (const kind of [...CHANNEL_KINDS, ...WEBHOOK_ONLY_KINDS])
      expect(Object.keys(SOCKET_SCHEMAS[kind]), kind).toEqual([kind]);
    expect(Object.keys(SOCKET_SCHEMAS.messenger).sort()).toEqual([
      "messenger_conversation",
      "messenger_message",
      "messenger_part",
      "messenger_rating",
      "messenger_read",
      "messenger_status",
      "messenger_typing",
    ]);
  });

  it("keeps transient and operators' kinds among the subscribable ones, and webhook-only ones out", () => {
    for (const k of [...TRANSIENT_KINDS, ...OPERATOR_KINDS]) expect(CHANNEL_KINDS).toContain(k);
    for (const k of WEBHOOK_ONLY_KINDS) expect(parseChannel(appChannel(k, 1))).toBeUndefined();
  });
});

describe("channel names", () => {
  it("read back as they were built, for every kind", () => {
    for (const kind of CHANNEL_KINDS) {
      expect(parseChannel(appChannel(kind, 12n))).toEqual({ kind, app: "12" });
      if (isOperatorKind(kind))
        expect(parseChannel(operatorChannel(kind, "12", 34))).toEqual({ kind, app: "12", admin: "34" });
      else expect(parseChannel(userChannel(kind, 12, 34n))).toEqual({ kind, app: "12", user: "34" });
    }
  });

  it("are refused when they are not one of them", () => {
    for (const name of [
      "nonsense",
      "conversation",
      "conversation.",
      "conversation.x",
      "conversation.1.2.3",
      "conversation.-1",
      "Conversation.1",
      "conversations.1",
      "lead_created.1",
      `conversation.${"1".repeat(20)}`,
      `${"a".repeat(195)}.12345`,
      MESSENGER_CHANNEL,
      42,
      null,
      { kind: "conversation" },
    ])
      expect(parseChannel(name), JSON.stringify(name)).toBeUndefined();
  });
});

describe("parseSocketMessage", () => {
  const envelope = { id: 7, channel: "conversation_read.3", type: "conversation_read", time: 1.5 };
  const read = { conversation: 9, by: "admin", user: 4, admin: null };

  it("types a message by its channel's kind and its type, with the channel's app", () => {
    const r = parseSocketMessage({ ...envelope, message: read });
    expect(r).toEqual({ msg: { ...envelope, kind: "conversation_read", app: "3", message: read } });
    const typing = { conversation: 9, admin: { id: 1, name: "Ann", avatar: "" } };
    const m = parseSocketMessage({
      id: null,
      channel: "messenger",
      type: "messenger_typing",
      message: typing,
      time: 2,
    });
    expect(m).toEqual({
      msg: {
        id: null,
        channel: "messenger",
        kind: "messenger",
        app: undefined,
        type: "messenger_typing",
        message: typing,
        time: 2,
      },
    });
  });

  it("says why a message is not one of the contract's", () => {
    const problem = (raw: unknown) => ("problem" in parseSocketMessage(raw) ? "problem" : "message");
    expect(problem({ ...envelope, message: { ...read, by: "robot" } })).toBe("problem");
    expect(problem({ ...envelope, message: { ...read, extra: 1 } })).toBe("problem");
    expect(problem({ ...envelope, type: "conversation", message: read })).toBe("problem");
    expect(problem({ ...envelope, type: "toString", message: read })).toBe("problem");
    expect(problem({ ...envelope, channel: "nonsense.3", message: read })).toBe("problem");
    expect(problem({ ...envelope, id: "7", message: read })).toBe("problem");
    expect(problem({ channel: "messenger", type: "messenger_read", message: read })).toBe("problem");
    expect(problem("conversation_read.3")).toBe("problem");
    expect(problem({ ...envelope, message: read })).toBe("message");
  });
});
