import { CodeTabs } from "../../_components/code-tabs";
import {
  CALLBACKS,
  CARROTQUEST_STUBS,
  methods,
  sampleHash,
  snippet,
  USAGE,
} from "@/lib/docs/guides/messenger";
import { AUTH_SNIPPET, HASH_EXAMPLES } from "@/lib/messenger/hash-examples";
import { Code, GuidePage, guideMetadata, Section } from "../_components/guide-page";

const SLUG = "messenger-js-api";
export const metadata = guideMetadata(SLUG);

export default function MessengerGuide() {
  const check = sampleHash();
  return (
    <GuidePage slug={SLUG}>
      <Section id="install" title="Install">
        <p>
          Paste this before <code>&lt;/body&gt;</code> on every page (Settings → Messenger shows it with your
          origin and key). The inline stub queues calls made before <code>messenger.js</code> has loaded; the
          loader then runs them in order.
        </p>
        <Code code={snippet()} label="Install snippet" />
      </Section>

      <Section id="methods" title="Methods">
        <p>
          Call a method as <code>Relay(&quot;name&quot;, …args)</code> or <code>carrotquest.name(…args)</code>
          : both globals reach the same methods. An unknown name is a console warning.
        </p>
        <dl className="divide-y divide-slate-100 border-y border-slate-100">
          {methods().map((m) => (
            <div key={m.name} id={`method-${m.name}`} className="py-2">
              <dt className="font-mono text-xs font-semibold text-slate-900">{m.call}</dt>
              <dd className="mt-0.5">{m.description}</dd>
            </div>
          ))}
        </dl>
        <Code code={USAGE} label="Method examples" />
      </Section>

      <Section id="callbacks" title="Callbacks">
        <p>
          <code>Relay(&quot;addCallback&quot;, name, fn)</code> calls <code>fn(data)</code> on these events;
          an error thrown by <code>fn</code> is logged and does not stop the others.
        </p>
        <table className="w-full text-left text-sm">
          <thead className="text-xs uppercase text-slate-500">
            <tr>
              <th className="py-1 pr-4">Name</th>
              <th className="py-1 pr-4">Data</th>
              <th className="py-1">When</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {CALLBACKS.map((c) => (
              <tr key={c.name}>
                <td className="py-1.5 pr-4 font-mono text-xs">{c.name}</td>
                <td className="py-1.5 pr-4 font-mono text-xs">{c.data}</td>
                <td className="py-1.5">{c.when}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </Section>

      <Section id="carrotquest" title="carrotquest stubs">
        <p>
          A site that already has a carrotquest stub can keep it: the loader replays either shape below (a
          queue may even mix them), and the snippet leaves an existing <code>window.carrotquest</code> alone.
        </p>
        <Code code={CARROTQUEST_STUBS} label="carrotquest stub shapes" />
      </Section>

      <Section id="identity-verification" title="Identity verification">
        <p>
          Your server computes <code>user_hash</code>: the hex HMAC-SHA256 of the user ID, as a UTF-8 string,
          with the messenger&apos;s identity secret. Never put the secret in a page.
        </p>
        <CodeTabs label="Server language" tabs={HASH_EXAMPLES.map((e) => ({ ...e }))} />
        <p>
          To check yours: secret <code>{check.secret}</code> and user ID <code>{check.userId}</code> give{" "}
          <code className="break-all">{check.hash}</code>.
        </p>
        <p>
          Then, on pages where the user is logged in, after the install snippet, pass the same ID and the
          hash. A hash that does not match is refused even when verification is optional; when the messenger
          requires verification, an auth without one is refused too. Either way the visitor stays anonymous
          and <code>auth_refused</code> fires.
        </p>
        <Code code={AUTH_SNIPPET} label="Page auth call" />
      </Section>
    </GuidePage>
  );
}
