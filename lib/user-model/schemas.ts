import { z } from "zod";

/** A user's presence as every API shape of a user shows it (lib/users, lib/leads); see presence-state.ts. */
export const presenceSchema = z.enum(["online", "idle", "offline"]);
