import type { Ctx } from "../auth/context";
import { Prisma } from "../db/generated/client";
import { sqlOf } from "../db/sql";
import { parseCustomProps } from "../user-model/prop-values";
import { segmentsOfUser, type SegmentRow } from "../segments/segments";
import { notesOf, type NoteRow } from "./notes";
import { findUserId, type UserRef } from "./resolve";
import { userSystemSelect, type UserSystemRow } from "../user-model/system-props";
import { tagsOf } from "./tags";

/** The optional parts of a user; `props` is on by default, the rest off (the spec's switches). */
export interface UserSwitches {
  props?: boolean;
  props_events?: boolean;
  props_custom?: boolean;
  presence_details?: boolean;
  events?: boolean;
  segments?: boolean;
  notes?: boolean;
  tags?: boolean;
  email_status?: boolean;
  timezone_offset?: boolean;
  props_sources?: boolean;
}

export interface EventSummaryRow {
  first: Date;
  last: Date;
  count: number;
  type: { id: bigint; name: string; score: number };
}

export interface UserView {
  row: UserSystemRow & {
    lastHeartbeat: Date | null;
    presenceDetails: unknown;
    propsCustom: unknown;
    propsSources: unknown;
    emailStatus: string;
    webpushSubscribed: boolean;
    timezoneOffset: number | null;
  };
  summaries?: EventSummaryRow[];
  segments?: SegmentRow[];
  notes?: NoteRow[];
  tags?: string[];
}

/** Loads a user and only the parts the switches ask for. */
export async function getUser(ctx: Ctx, input: { user: UserRef; switches: UserSwitches }): Promise<UserView> {
  const ref = await findUserId(ctx, input.user);
  const sw = input.switches;
  // findFirst: findUnique calls of one tick share a query with other requests' (see findUserId).
  const row = await ctx.db.user.findFirstOrThrow({
    where: { id: ref.id },
    select: {
      ...userSystemSelect,
      presenceDetails: true,
      propsSources: true,
      emailStatus: true,
      webpushSubscribed: true,
      timezoneOffset: true,
    },
  });
  // Read as text, only when shown: Prisma's JSON.parse would round integers beyond 2^53.
  const view: UserView = {
    row: { ...row, propsCustom: sw.props_custom ? await customPropsOf(ctx, ref.id) : {} },
  };
  if (sw.props_events || sw.events) view.summaries = await summariesOf(ctx, ref.id);
  if (sw.segments) view.segments = await segmentsOfUser(ctx, ref);
  if (sw.notes) view.notes = await notesOf(ctx, ref.id);
  if (sw.tags) view.tags = await tagsOf(ctx, ref.id);
  return view;
}

async function customPropsOf(ctx: Ctx, userId: bigint) {
  const [r] = await sqlOf(ctx.db).$queryRaw<{ json: string }[]>(
    Prisma.sql`SELECT props_custom::text AS json FROM users WHERE id = ${userId}`,
  );
  return parseCustomProps(r?.json);
}

export async function summariesOf(ctx: Ctx, userId: bigint): Promise<EventSummaryRow[]> {
  return ctx.db.userEventSummary.findMany({
    where: { userId },
    select: { first: true, last: true, count: true, type: { select: { id: true, name: true, score: true } } },
    orderBy: { eventTypeId: "asc" },
  });
}
