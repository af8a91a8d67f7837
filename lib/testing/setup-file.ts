import { beforeAll } from "vitest";
import { forgetProcessWide } from "../config/process-wide";

// Test files share their worker's process (vitest `isolate: false`): each starts without what earlier files'
// servers remembered process-wide.
beforeAll(() => forgetProcessWide());
