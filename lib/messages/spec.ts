import type { Prisma } from "../db/generated/client";
import {
  frequencySchema,
  goalSchema,
  scheduleSchema,
  triggerSchema,
  type Frequency,
  type Goal,
  type MessageKind,
  type MessageStatus,
  type Schedule,
  type Trigger,
} from "./schemas";

export interface MessageRow {
  id: bigint;
  appId: bigint;
  name: string;
  kind: string;
  status: string;
  content: Prisma.JsonValue;
  trigger: Prisma.JsonValue;
  audience: Prisma.JsonValue;
  timeoutSeconds: number;
  frequency: Prisma.JsonValue;
  schedule: Prisma.JsonValue;
  goal: Prisma.JsonValue;
  controlPercent: number;
  created: Date;
  updated: Date;
}

/** A message's settings as the services use them, parsed from its row. */
export interface MessageSpec {
  id: bigint;
  appId: bigint;
  name: string;
  kind: MessageKind;
  status: MessageStatus;
  content: Record<string, unknown>;
  trigger: Trigger;
  audience: unknown;
  timeoutSeconds: number;
  frequency: Frequency;
  schedule: Schedule | null;
  goal: Goal | null;
  controlPercent: number;
}

export const specOf = (r: MessageRow): MessageSpec => ({
  id: r.id,
  appId: r.appId,
  name: r.name,
  kind: r.kind as MessageKind,
  status: r.status as MessageStatus,
  content: r.content as Record<string, unknown>,
  trigger: triggerSchema.parse(r.trigger),
  audience: r.audience,
  timeoutSeconds: r.timeoutSeconds,
  frequency: frequencySchema.parse(r.frequency),
  schedule: r.schedule === null ? null : scheduleSchema.parse(r.schedule),
  goal: r.goal === null ? null : goalSchema.parse(r.goal),
  controlPercent: r.controlPercent,
});
