import { allSteps, MAX_BUTTONS, MAX_DEPTH, MAX_STEPS, type Step, type StepType } from "@/lib/bots/steps";

/**
 * The editor's operations on a bot's step tree. Pure: each returns a new tree and leaves its input alone.
 *
 * A step's path is its index in the top list, then, for each branch it is inside, `"buttons", <button>, "steps",
 * <index>`: `[1, "buttons", 0, "steps", 2]` is the third step of the first button's branch of the second step. A
 * list's path is the path of its buttons step followed by `"buttons", <button>, "steps"` (`[]` for the top list).
 * These are the API's error paths (`steps.1.buttons.0.steps.2.body`) without the leading `steps`.
 */
export type StepPath = readonly (number | "buttons" | "steps")[];
export type ButtonsStep = Extract<Step, { type: "buttons" }>;

const TOP: StepPath = [];

/** The list a step is in, and its index there. */
export function placeOf(path: StepPath): { list: StepPath; index: number } {
  const index = path[path.length - 1];
  return { list: path.slice(0, -1), index: typeof index === "number" ? index : -1 };
}

/** The list of a button's branch. */
export const branchPath = (path: StepPath, button: number): StepPath => [...path, "buttons", button, "steps"];

/** How many lists deep a step is: 1 for the top list, 2 inside one branch… */
export const depthOf = (path: StepPath) => (path.length + 3) / 4;

/** The path as people number steps: `[1, "buttons", 0, "steps", 2]` is step "2.1.3". */
export const stepNumber = (path: StepPath) =>
  path.flatMap((p) => (typeof p === "number" ? [String(p + 1)] : [])).join(".");

/** Applies `fn` to the list at `at`; a path that leads nowhere leaves the tree as it is. */
function mapList(list: Step[], at: StepPath, fn: (l: Step[]) => Step[]): Step[] {
  if (at.length === 0) return fn(list);
  const [i, buttons, j, steps, ...rest] = at;
  if (buttons !== "buttons" || steps !== "steps") return list;
  return list.map((s, k) =>
    k === i && s.type === "buttons"
      ? {
          ...s,
          buttons: s.buttons.map((b, m) => (m === j ? { ...b, steps: mapList(b.steps, rest, fn) } : b)),
        }
      : s,
  );
}

export function listAt(steps: Step[], at: StepPath): Step[] | undefined {
  if (at.length === 0) return steps;
  const [i, buttons, j, inner, ...rest] = at;
  if (buttons !== "buttons" || inner !== "steps" || typeof i !== "number" || typeof j !== "number") return;
  const s = steps[i];
  const b = s?.type === "buttons" ? s.buttons[j] : undefined;
  return b && listAt(b.steps, rest);
}

export function stepAt(steps: Step[], path: StepPath): Step | undefined {
  const { list, index } = placeOf(path);
  return listAt(steps, list)?.[index];
}

export function updateStep(steps: Step[], path: StepPath, fn: (s: Step) => Step): Step[] {
  const { list, index } = placeOf(path);
  return mapList(steps, list, (l) => l.map((s, k) => (k === index ? fn(s) : s)));
}

/** Puts `step` at `index` of the list at `list`; answers the tree and the new step's path. */
export function insertStep(
  steps: Step[],
  list: StepPath,
  index: number,
  step: Step,
): { steps: Step[]; path: StepPath } {
  return {
    steps: mapList(steps, list, (l) => [...l.slice(0, index), step, ...l.slice(index)]),
    path: [...list, index],
  };
}

export function insertAfter(steps: Step[], path: StepPath, step: Step) {
  const { list, index } = placeOf(path);
  return insertStep(steps, list, index + 1, step);
}

/** Adds `step` at the end of a button's branch. */
export function appendToBranch(steps: Step[], path: StepPath, button: number, step: Step) {
  const list = branchPath(path, button);
  return insertStep(steps, list, listAt(steps, list)?.length ?? 0, step);
}

/** Swaps a step with the one before (-1) or after (+1) it in its list; at an end nothing moves. */
export function moveStep(steps: Step[], path: StepPath, delta: -1 | 1): { steps: Step[]; path: StepPath } {
  const { list, index } = placeOf(path);
  const to = index + delta;
  const length = listAt(steps, list)?.length ?? 0;
  if (index < 0 || index >= length || to < 0 || to >= length) return { steps, path };
  return {
    steps: mapList(steps, list, (l) => {
      const next = [...l];
      [next[index], next[to]] = [next[to]!, next[index]!];
      return next;
    }),
    path: [...list, to],
  };
}

export function removeStep(steps: Step[], path: StepPath): Step[] {
  const { list, index } = placeOf(path);
  return mapList(steps, list, (l) => l.filter((_, k) => k !== index));
}

/** Applies `fn` to the buttons of a buttons step (any other step stays as it is). */
function mapButtons(
  steps: Step[],
  path: StepPath,
  fn: (b: ButtonsStep["buttons"]) => ButtonsStep["buttons"],
) {
  return updateStep(steps, path, (s) => (s.type === "buttons" ? { ...s, buttons: fn(s.buttons) } : s));
}

/** A new button (its branch empty) at the end; none past MAX_BUTTONS. Answers its index, -1 when not added. */
export function addButton(steps: Step[], path: StepPath, label = ""): { steps: Step[]; index: number } {
  const s = stepAt(steps, path);
  if (s?.type !== "buttons" || s.buttons.length >= MAX_BUTTONS) return { steps, index: -1 };
  return { steps: mapButtons(steps, path, (b) => [...b, { label, steps: [] }]), index: s.buttons.length };
}

export function renameButton(steps: Step[], path: StepPath, index: number, label: string): Step[] {
  return mapButtons(steps, path, (b) => b.map((x, k) => (k === index ? { ...x, label } : x)));
}

/** Removes a button and its branch; the last one stays (a buttons step needs one). */
export function removeButton(steps: Step[], path: StepPath, index: number): Step[] {
  return mapButtons(steps, path, (b) => (b.length > 1 ? b.filter((_, k) => k !== index) : b));
}

/** The first `sN` no step of the tree uses (as the server names steps, so IDs given here look like its own). */
export function freshId(steps: Step[]): string {
  const taken = new Set(allSteps(steps).map((s) => s.id));
  let n = 1;
  while (taken.has(`s${n}`)) n++;
  return `s${n}`;
}

/** A step of `type` with empty fields, as the editor adds it. */
export function newStep(type: StepType, id: string): Step {
  switch (type) {
    case "text":
      return { id, type, body: "" };
    case "buttons":
      return { id, type, body: "", buttons: [{ label: "", steps: [] }] };
    case "ask":
      return { id, type, body: "", prop: "$email" };
    case "tag":
      return { id, type, target: "user", tag: "" };
    case "assign":
    case "handover":
    case "close":
      return { id, type };
  }
}

export function pathOfId(steps: Step[], id: string): StepPath | null {
  const find = (list: Step[], at: StepPath): StepPath | null => {
    for (const [i, s] of list.entries()) {
      if (s.id === id) return [...at, i];
      if (s.type === "buttons")
        for (const [j, b] of s.buttons.entries()) {
          const found = find(b.steps, [...at, i, "buttons", j, "steps"]);
          if (found) return found;
        }
    }
    return null;
  };
  return find(steps, TOP);
}

/**
 * The step an API error key names (`steps.1.buttons.0.steps.0.body`) and the rest of the key (`body`;
 * `buttons.0.label` for a button of the step itself; "" for the step as a whole). Null when the key is not a
 * step's or names no step of `steps`.
 */
export function errorPlace(steps: Step[], key: string): { path: StepPath; field: string } | null {
  const parts = key.split(".");
  if (parts[0] !== "steps") return null;
  const path: (number | "buttons" | "steps")[] = [];
  let k = 1;
  for (;;) {
    const index = Number(parts[k]);
    if (!/^\d+$/.test(parts[k] ?? "")) return null;
    path.push(index);
    k++;
    const isBranch =
      parts[k] === "buttons" &&
      /^\d+$/.test(parts[k + 1] ?? "") &&
      parts[k + 2] === "steps" &&
      k + 3 < parts.length;
    if (!isBranch) break;
    path.push("buttons", Number(parts[k + 1]), "steps");
    k += 3;
  }
  return stepAt(steps, path) ? { path, field: parts.slice(k).join(".") } : null;
}

/** Whether a step of `type` may go into the list at `list`: the tree's size and depth limits. */
export function canAdd(steps: Step[], list: StepPath, type: StepType): boolean {
  if (allSteps(steps).length >= MAX_STEPS) return false;
  const depth = list.length / 4 + 1;
  // A buttons step on the deepest level could hold no step in its branches.
  return type === "buttons" ? depth < MAX_DEPTH : depth <= MAX_DEPTH;
}
