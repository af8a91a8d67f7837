/** The continuity job's queue: apart from its handler, which the part writers must not import. */
export const CONTINUITY_QUEUE = "email.continuity";
