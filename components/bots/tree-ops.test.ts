import { describe, expect, test } from "vitest";
import { MAX_BUTTONS, MAX_DEPTH, type Step } from "@/lib/bots/steps";
import {
  addButton,
  appendToBranch,
  branchPath,
  canAdd,
  depthOf,
  errorPlace,
  freshId,
  insertAfter,
  insertStep,
  listAt,
  moveStep,
  newStep,
  pathOfId,
  removeButton,
  removeStep,
  renameButton,
  stepAt,
  stepNumber,
  updateStep,
  type StepPath,
} from "./tree-ops";

/** The lead bot's shape: hello, reach (yes: email, company; no: later), done. */
const tree = (): Step[] => [
  { id: "hello", type: "text", body: "Hi" },
  {
    id: "reach",
    type: "buttons",
    body: "Email you?",
    buttons: [
      {
        label: "Yes",
        steps: [
          { id: "email", type: "ask", body: "Email?", prop: "$email" },
          { id: "company", type: "ask", body: "Company?", prop: "company" },
        ],
      },
      { label: "No", steps: [{ id: "later", type: "text", body: "Later" }] },
    ],
  },
  { id: "done", type: "handover", body: "Thanks" },
];

const ids = (list: Step[] | undefined) => list?.map((s) => s.id);
const YES: StepPath = [1, "buttons", 0, "steps"];

describe("reading the tree by path", () => {
  test("steps and lists are found at the top and inside branches", () => {
    const t = tree();
    expect(stepAt(t, [0])?.id).toBe("hello");
    expect(stepAt(t, [...YES, 1])?.id).toBe("company");
    expect(stepAt(t, [1, "buttons", 1, "steps", 0])?.id).toBe("later");
    expect(ids(listAt(t, YES))).toEqual(["email", "company"]);
    expect(stepAt(t, [5])).toBeUndefined();
    expect(stepAt(t, [0, "buttons", 0, "steps", 0])).toBeUndefined();
    expect(listAt(t, [1, "buttons", 7, "steps"])).toBeUndefined();
  });

  test("paths by ID, numbers and depth", () => {
    const t = tree();
    expect(pathOfId(t, "company")).toEqual([1, "buttons", 0, "steps", 1]);
    expect(pathOfId(t, "done")).toEqual([2]);
    expect(pathOfId(t, "nope")).toBeNull();
    expect(stepNumber([1, "buttons", 0, "steps", 2])).toBe("2.1.3");
    expect(depthOf([0])).toBe(1);
    expect(depthOf([1, "buttons", 0, "steps", 2])).toBe(2);
    expect(branchPath([1], 1)).toEqual([1, "buttons", 1, "steps"]);
  });
});

describe("editing steps", () => {
  test("an edit changes one step and leaves the input tree alone", () => {
    const t = tree();
    const before = JSON.stringify(t);
    const next = updateStep(t, [...YES, 0], (s) => (s.type === "ask" ? { ...s, prop: "$phone" } : s));
    expect(stepAt(next, [...YES, 0])).toMatchObject({ prop: "$phone" });
    expect(JSON.stringify(t)).toBe(before);
    expect(next[0]).toBe(t[0]);
  });

  test("a step is inserted after another, at an index, or at the end of a branch, with its path", () => {
    const t = tree();
    const a = insertAfter(t, [0], newStep("text", "s1"));
    expect(ids(a.steps)).toEqual(["hello", "s1", "reach", "done"]);
    expect(a.path).toEqual([1]);
    const b = insertAfter(t, [...YES, 0], newStep("tag", "s1"));
    expect(ids(listAt(b.steps, YES))).toEqual(["email", "s1", "company"]);
    expect(b.path).toEqual([...YES, 1]);
    const c = appendToBranch(t, [1], 1, newStep("close", "s1"));
    expect(ids(listAt(c.steps, [1, "buttons", 1, "steps"]))).toEqual(["later", "s1"]);
    expect(c.path).toEqual([1, "buttons", 1, "steps", 1]);
    const d = insertStep(t, [], 0, newStep("text", "s1"));
    expect(ids(d.steps)).toEqual(["s1", "hello", "reach", "done"]);
  });

  test("a step moves within its list and answers its new path; at an end it stays", () => {
    const t = tree();
    const up = moveStep(t, [2], -1);
    expect(ids(up.steps)).toEqual(["hello", "done", "reach"]);
    expect(up.path).toEqual([1]);
    const down = moveStep(t, [...YES, 0], 1);
    expect(ids(listAt(down.steps, YES))).toEqual(["company", "email"]);
    expect(down.path).toEqual([...YES, 1]);
    expect(moveStep(t, [0], -1)).toEqual({ steps: t, path: [0] });
    expect(moveStep(t, [...YES, 1], 1).steps).toBe(t);
  });

  test("removing a buttons step removes its branches", () => {
    const t = tree();
    expect(ids(removeStep(t, [1]))).toEqual(["hello", "done"]);
    expect(ids(listAt(removeStep(t, [...YES, 0]), YES))).toEqual(["company"]);
  });
});

describe("editing buttons", () => {
  test("added, renamed and removed; the last one stays", () => {
    const t = tree();
    const added = addButton(t, [1], "Maybe");
    expect(added.index).toBe(2);
    const labels = (s: Step[]) => {
      const b = stepAt(s, [1]);
      return b?.type === "buttons" ? b.buttons.map((x) => x.label) : [];
    };
    expect(labels(added.steps)).toEqual(["Yes", "No", "Maybe"]);
    expect(labels(renameButton(added.steps, [1], 0, "Sure"))).toEqual(["Sure", "No", "Maybe"]);
    const removed = removeButton(added.steps, [1], 0);
    expect(labels(removed)).toEqual(["No", "Maybe"]);
    expect(ids(listAt(removed, [1, "buttons", 0, "steps"]))).toEqual(["later"]);
    const one = removeButton(removeButton(removed, [1], 0), [1], 0);
    expect(labels(one)).toEqual(["Maybe"]);
  });

  test("no button is added past the limit, nor to a step that is not a buttons step", () => {
    let t = tree();
    for (let i = 2; i < MAX_BUTTONS; i++) t = addButton(t, [1]).steps;
    expect(addButton(t, [1])).toEqual({ steps: t, index: -1 });
    expect(addButton(t, [0]).index).toBe(-1);
  });
});

describe("new steps", () => {
  test("IDs are the first free sN, as the server names steps", () => {
    expect(freshId(tree())).toBe("s1");
    expect(
      freshId([
        { id: "s1", type: "text", body: "" },
        { id: "s3", type: "close" },
      ]),
    ).toBe("s2");
    expect(freshId([])).toBe("s1");
  });

  test("each type starts with empty fields; buttons with one button", () => {
    expect(newStep("buttons", "s1")).toEqual({
      id: "s1",
      type: "buttons",
      body: "",
      buttons: [{ label: "", steps: [] }],
    });
    expect(newStep("ask", "s2")).toEqual({ id: "s2", type: "ask", body: "", prop: "$email" });
    expect(newStep("assign", "s3")).toEqual({ id: "s3", type: "assign" });
  });

  test("a buttons step is not added where its branches could hold nothing", () => {
    let list: StepPath = [];
    for (let d = 1; d < MAX_DEPTH; d++) list = [...list, 0, "buttons", 0, "steps"];
    expect(canAdd(tree(), list, "text")).toBe(true);
    expect(canAdd(tree(), list, "buttons")).toBe(false);
    expect(canAdd(tree(), [], "buttons")).toBe(true);
  });
});

describe("error paths", () => {
  test("an API key names a step and the rest of the key", () => {
    const t = tree();
    expect(errorPlace(t, "steps.1.buttons.0.steps.1.body")).toEqual({ path: [...YES, 1], field: "body" });
    expect(errorPlace(t, "steps.1.buttons.1.label")).toEqual({ path: [1], field: "buttons.1.label" });
    expect(errorPlace(t, "steps.1.buttons")).toEqual({ path: [1], field: "buttons" });
    expect(errorPlace(t, "steps.2")).toEqual({ path: [2], field: "" });
    expect(errorPlace(t, "steps.0.id")).toEqual({ path: [0], field: "id" });
  });

  test("keys that name no step", () => {
    const t = tree();
    expect(errorPlace(t, "steps")).toBeNull();
    expect(errorPlace(t, "steps.9.body")).toBeNull();
    expect(errorPlace(t, "name")).toBeNull();
    expect(errorPlace(t, "steps.1.buttons.5.steps.0.body")).toBeNull();
  });
});
