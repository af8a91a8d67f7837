import { describe, expect, it } from "vitest";
import { applyPart, EMPTY_STATE } from "./state";

describe("applyPart", () => {
  it("counts visitors' messages unread until an operator replies", () => {
    let s = applyPart(EMPTY_STATE, { id: 1n, type: "reply_user", fromAdminId: null });
    s = applyPart(s, { id: 2n, type: "reply_user", fromAdminId: null });
    expect(s).toMatchObject({
      partsCount: 2,
      unreadPartsCount: 2,
      read: false,
      hasUserReplies: true,
      answered: false,
      replyLastId: 2n,
    });
    s = applyPart(s, { id: 3n, type: "note", fromAdminId: 7n });
    expect(s).toMatchObject({
      unreadPartsCount: 2,
      read: false,
      importantPartLastId: 3n,
      replyLastId: 2n,
      lastAdminId: null,
    });
    s = applyPart(s, { id: 4n, type: "reply_admin", fromAdminId: 7n });
    expect(s).toMatchObject({
      unreadPartsCount: 0,
      read: true,
      answered: true,
      replied: true,
      lastAdminId: 7n,
      replyLastId: 4n,
    });
  });

  it("system parts move part_last only, and change their own field", () => {
    const until = new Date(Date.now() + 1000);
    let s = applyPart(
      { ...EMPTY_STATE, closed: true },
      { id: 5n, type: "delayed", fromAdminId: 1n, delayedUntil: until },
    );
    expect(s).toMatchObject({
      closed: false,
      delayedUntil: until,
      partLastId: 5n,
      importantPartLastId: null,
      partsCount: 1,
    });
    s = applyPart(s, { id: 6n, type: "closed", fromAdminId: 1n });
    expect(s).toMatchObject({ closed: true, delayedUntil: null });
    s = applyPart(s, { id: 7n, type: "assigned", fromAdminId: 1n, assigneeId: 9n });
    expect(s.assigneeId).toBe(9n);
    s = applyPart(s, { id: 8n, type: "tag_added", fromAdminId: 1n, tags: ["a"] });
    expect(s).toMatchObject({ tags: ["a"], partsCount: 4, partLastId: 8n });
    s = applyPart(s, { id: 9n, type: "reply_user", fromAdminId: null });
    expect(s).toMatchObject({ closed: false, read: false });
  });
});
