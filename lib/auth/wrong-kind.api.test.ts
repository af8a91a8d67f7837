import { describe, expect } from "vitest";
import { serverTest } from "../testing/server-test";
import { unique } from "../testing/factories";
import { bootTestVisitor } from "../messenger/testing";
import type { TokenPairData } from "../sessions/schemas";

/**
 * A genuine token of the wrong kind (a messenger visitor's on an operator's endpoint, an API v3 access token under
 * v2) is refused saying so, and is no guess: however many, the address's unknown-token limit is untouched. Counting
 * in memory (no Redis), with a small limit.
 */
const it = serverTest({ badTokensPerMinute: 5, redisUrl: undefined });

const MANY = 40;

describe("a token of the wrong kind", () => {
  it(
    "is refused as such, never counted as an unknown token",
    { timeout: 90_000 },
    async ({ server, app }) => {
      const visitor = (await bootTestVisitor(server, app)).boot.access_token;
      const exchanged = await server.call("/api/v3/auth/token", {
        method: "POST",
        headers: { Authorization: `Token ${app.token}` },
        form: { grant_type: "api_key" },
      });
      const v3 = (exchanged.body.data as TokenPairData).access_token;
      const channels = `/api/apps/${app.app.id}/channels`;
      const call = (path: string, token: string) =>
        server.call(path, { headers: { Authorization: `Bearer ${token}` } });

      const wrong = [
        ...Array.from({ length: MANY / 2 }, () => call(channels, visitor)),
        ...Array.from({ length: MANY / 4 }, () => call(`/api/v3${channels.slice(4)}`, visitor)),
        ...Array.from({ length: MANY / 4 }, () => call(channels, v3)),
      ];
      const answers = await Promise.all(wrong);
      expect(answers.map((r) => r.status)).toEqual(Array<number>(MANY).fill(401));
      expect(answers[0]!.body.meta.error_message).toMatch(/messenger visitor's access token cannot call/);
      expect(answers[MANY - 1]!.body.meta.error_message).toMatch(/accepted under API v3 only/);
      // The other way round: an API key, or a key's access token, on a visitor's endpoint.
      for (const token of [app.token, v3]) {
        const r = await call("/api/v2/messenger/me", token);
        expect(r.status).toBe(401);
        expect(r.body.meta.error_message).toMatch(/needs a messenger visitor's access token/);
      }

      const guess = await call(channels, `rly_${unique("guess")}`);
      expect(guess.status, guess.text).toBe(401);
      expect((await call(channels, app.token)).status).toBe(200);
      expect((await call(`/api/v3${channels.slice(4)}`, v3)).status).toBe(200);
      expect((await call("/api/v2/messenger/me", visitor)).status).toBe(200);
    },
  );
});
