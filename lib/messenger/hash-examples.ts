/**
 * How a site's server computes user_hash (lib/messenger/identity.ts): the hex HMAC-SHA256 of the user ID with the
 * identity secret. One copy, browser-safe (no imports): Settings → Messenger and the reference's JS API guide
 * show the same code.
 */
export const HASH_EXAMPLES = [
  {
    id: "node",
    label: "Node.js",
    code: `import crypto from "node:crypto";

const userHash = crypto
  .createHmac("sha256", process.env.RELAY_IDENTITY_SECRET)
  .update(String(user.id))
  .digest("hex");`,
  },
  {
    id: "python",
    label: "Python",
    code: `import hashlib, hmac, os

user_hash = hmac.new(
    os.environ["RELAY_IDENTITY_SECRET"].encode(),
    str(user.id).encode(),
    hashlib.sha256,
).hexdigest()`,
  },
  {
    id: "php",
    label: "PHP",
    code: `<?php
$userHash = hash_hmac('sha256', (string) $user->id, getenv('RELAY_IDENTITY_SECRET'));`,
  },
  {
    id: "ruby",
    label: "Ruby",
    code: `require "openssl"

user_hash = OpenSSL::HMAC.hexdigest("SHA256", ENV.fetch("RELAY_IDENTITY_SECRET"), user.id.to_s)`,
  },
] as const;

/** What the page then says, once the user is logged in (after the install snippet). */
export const AUTH_SNIPPET = `<script>
  Relay("auth", "USER_ID", "USER_HASH");
  Relay("addCallback", "auth_refused", function (e) { console.warn("Relay auth refused", e.status, e.error); });
</script>`;
