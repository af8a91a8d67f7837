import { EXAMPLE_ORIGIN } from "../request";
import { installSnippet } from "../../messenger/install-snippet";
import { userHashOf } from "../../messenger/identity";
import { API_METHODS, type ApiMethod } from "../../../messenger/queue";
import { MAX_OPERATIONS, OPS } from "../../props/operations";

/**
 * The Messenger JS API guide's model. The snippet is rendered by the function Settings → Messenger uses, and the
 * method table is keyed by the loader's method type, so a method added there fails the build until it is written
 * up here.
 */
export const EXAMPLE_KEY = "mk_YOUR_PUBLIC_KEY";

export function snippet(): string {
  return installSnippet(EXAMPLE_ORIGIN, EXAMPLE_KEY);
}

export interface MethodDoc {
  name: ApiMethod;
  call: string;
  description: string;
}

const METHODS: Record<ApiMethod, Omit<MethodDoc, "name">> = {
  connect: {
    call: `Relay("connect", "mk_…", settings)`,
    description:
      "Sets the public key when the script tag has no data-key, and draws the launcher. The settings object is passed on but not used by this version.",
  },
  auth: {
    call: `Relay("auth", userId, userHash)`,
    description:
      "Logs the visitor in as your user. With a valid hash the visitor becomes that user; without one (allowed only when verification is not required) the ID is only claimed. A refusal fires auth_refused.",
  },
  identify: {
    call: `Relay("identify", { $name, $email, $phone, …props }) · Relay("identify", [{ op, key, value }, …])`,
    description: `Object form: name, email and phone (with or without $) set the known fields, every other key is a custom property. Array form: property operations (${OPS.join(", ")}), at most ${MAX_OPERATIONS}.`,
  },
  track: {
    call: `Relay("track", name, params)`,
    description: "Records an event of the visitor, with an optional object of parameters.",
  },
  trackMessageInteraction: {
    call: `Relay("trackMessageInteraction", sendingId, "read" | "clicked")`,
    description:
      'Records that a sent message was read or clicked ("click" is accepted too). A bad sending ID or type is a console warning, not an error; "replied" is not recorded.',
  },
  open: { call: `Relay("open")`, description: "Opens the messenger." },
  close: { call: `Relay("close")`, description: "Closes the messenger." },
  onReady: {
    call: `Relay("onReady", fn)`,
    description:
      "Calls fn once the messenger's frame is ready (at once if it already is); also after a refused auth.",
  },
  addCallback: {
    call: `Relay("addCallback", name, fn)`,
    description: "Calls fn(data) on each of the events below.",
  },
  removeCallback: {
    call: `Relay("removeCallback", name, fn?)`,
    description: "Removes fn from the event, or every function of it when fn is left out.",
  },
};

export function methods(): MethodDoc[] {
  return API_METHODS.map((name) => ({ name, ...METHODS[name] }));
}

/** The events the loader and the frame emit to addCallback's functions, with what each passes. */
export const CALLBACKS: readonly { name: string; data: string; when: string }[] = [
  { name: "messenger_opened", data: "none", when: "The messenger opened." },
  { name: "messenger_closed", data: "none", when: "The messenger closed." },
  {
    name: "call_received",
    data: "{ method, args }",
    when: "The frame received a forwarded call (auth, identify, track…), before running it.",
  },
  {
    name: "message_received",
    data: "{ conversation, id, body }",
    when: "An operator’s reply (a reply_admin part) arrived live.",
  },
  {
    name: "conversation_started",
    data: "{ id }",
    when: "The visitor started a conversation: by writing, or by answering a message sent to them.",
  },
  {
    name: "auth_refused",
    data: "{ user_id, status, error, message }",
    when: "The server refused an auth (a bad hash, or none where verification is required); the visitor stays anonymous.",
  },
];

/** Both carrotquest stub shapes the loader replays (messenger/queue.ts), for sites migrating their own stub. */
export const CARROTQUEST_STUBS = `// two-push: each call queues its name, then its arguments
carrotquest.track = function () { carrotquestasync.push("track", arguments); };
// one-tuple: each call queues [name, ...arguments]
carrotquest.track = function () { carrotquestasync.push(["track"].concat([].slice.call(arguments))); };`;

export const USAGE = `<script>
  Relay("identify", { $name: "Jane Doe", $email: "jane@example.com", plan: "pro" });
  Relay("identify", [{ op: "add", key: "logins", value: 1 }]);
  Relay("track", "Checked out", { total: 42 });
  Relay("addCallback", "conversation_started", function (e) { console.log("conversation", e.id); });
  Relay("onReady", function () { Relay("open"); });
</script>`;

/** A worked value, computed by the server's own function, to check an implementation against. */
export function sampleHash(): { secret: string; userId: string; hash: string } {
  const secret = "identity_secret_example";
  const userId = "42";
  return { secret, userId, hash: userHashOf(secret, userId) };
}
