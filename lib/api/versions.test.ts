import { afterEach, describe, expect, it } from "vitest";
import { loadConfig } from "../config/env";
import { setRuntime, tryRuntime, type Runtime } from "../server/runtime";
import { resolveVersion } from "./versions";

const saved = tryRuntime();
afterEach(() => setRuntime(saved));

describe("resolveVersion", () => {
  it("knows 3.0.0 by major, prefix and full version", () => {
    for (const v of ["3", "v3", "3.0", "3.0.0"])
      expect(resolveVersion(v)).toEqual({ major: 3, full: "3.0.0" });
    expect(() => resolveVersion("4")).toThrow();
  });

  it("answers requests naming no version with 2, or with DEFAULT_API_VERSION", () => {
    expect(loadConfig({ NODE_ENV: "test" }).defaultApiVersion).toBe("2");
    expect(resolveVersion(undefined).full).toBe("2.1.0");
    const config = loadConfig({ NODE_ENV: "test", DEFAULT_API_VERSION: "3" });
    setRuntime({ config } as Runtime);
    expect(resolveVersion(undefined).full).toBe("3.0.0");
    expect(resolveVersion("2").full).toBe("2.1.0");
  });
});
