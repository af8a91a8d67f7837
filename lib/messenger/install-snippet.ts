import { API_METHODS } from "../../messenger/queue";

/**
 * What a site pastes before `</body>` (Settings → Messenger shows it): an inline stub, then the loader, async. The
 * stub is there so a call made right after the snippet (`carrotquest.auth(…)`, `Relay("track", …)`) is queued
 * until messenger/loader.ts has loaded, not a ReferenceError. Its carrotquest half has the two-push shape of
 * carrotquest's own stub (messenger/queue.ts reads both), and leaves a site's own carrotquest stub alone. ES5: it
 * runs on the site's page as written.
 */
export function installSnippet(origin: string, publicKey: string): string {
  return [
    "<script>",
    "  window.Relay = window.Relay || function () { (Relay.q = Relay.q || []).push(arguments); };",
    "  if (!window.carrotquest) {",
    "    window.carrotquestasync = [];",
    "    window.carrotquest = {};",
    `    [${API_METHODS.map((m) => JSON.stringify(m)).join(", ")}]`,
    "      .forEach(function (m) { carrotquest[m] = function () { carrotquestasync.push(m, arguments); }; });",
    "  }",
    "</script>",
    `<script async src="${origin}/messenger.js" data-key="${publicKey}"></script>`,
  ].join("\n");
}
