import { FieldTree } from "../../_components/field-tree";
import {
  channelDocs,
  CONNECT_EXAMPLE,
  MAX_CHANNELS,
  messengerChannel,
  type ChannelDoc,
} from "@/lib/docs/guides/realtime";
import { Code, GuidePage, guideMetadata, Section } from "../_components/guide-page";

const SLUG = "realtime";
export const metadata = guideMetadata(SLUG);

function Channel({ c }: { c: ChannelDoc }) {
  return (
    <div id={`channel-${c.kind}`} className="border-t border-slate-200 pt-4">
      <h3 className="font-mono text-sm font-semibold text-slate-900">{c.kind}</h3>
      <p className="mt-1 font-mono text-xs text-slate-500">
        {c.names.join(" · ")}
        {c.transient ? " · not stored (id null, never replayed)" : ""}
      </p>
      {c.types.map((t) => (
        <div key={t.type} className="mt-2">
          {c.types.length > 1 && <p className="font-mono text-xs font-semibold">type {t.type}</p>}
          <details>
            <summary className="cursor-pointer text-sm font-medium">Payload fields</summary>
            <FieldTree fields={t.fields} />
          </details>
          <details>
            <summary className="cursor-pointer text-sm font-medium">Example message</summary>
            <Code code={JSON.stringify(t.envelope, null, 2)} label={`${c.kind} ${t.type} example`} />
          </details>
        </div>
      ))}
    </div>
  );
}

export default function RealtimeGuide() {
  return (
    <GuidePage slug={SLUG}>
      <Section id="connecting" title="Connecting and subscribing">
        <p>
          Connect with socket.io at <code>/socket.io</code>, passing an API key or an access token as{" "}
          <code>auth.token</code> (the panel&apos;s session cookie works too). Then <code>subscribe</code> to
          up to {MAX_CHANNELS} channels; the ack lists what was <code>subscribed</code> and{" "}
          <code>refused</code>, and the <code>position</code> live delivery starts after.
        </p>
        <Code code={CONNECT_EXAMPLE} label="Subscribing with socket.io-client" />
        <p>
          Every message arrives as the socket.io event <code>message</code>:{" "}
          <code>{"{id, channel, type, message, time}"}</code>. <code>id</code> is the position to resume from
          (null for what is not stored), <code>time</code> Unix seconds, <code>message</code> the payload of{" "}
          <code>type</code>. Subscribing with <code>after</code> replays what was missed; <code>gap</code> in
          the ack says retention purged some of it.
        </p>
      </Section>
      <Section id="access" title="Who may listen">
        <p>
          <code>&lt;kind&gt;.&lt;app&gt;</code> carries the app&apos;s events;{" "}
          <code>&lt;kind&gt;.&lt;app&gt;.&lt;user&gt;</code> only those of one user. An API key needs{" "}
          <code>conversations-read</code> for the conversation channels and <code>admin_availability</code>,{" "}
          <code>user-read</code> for the others. <code>notification</code> and <code>bulk_job</code> channels
          end in an operator and are that operator&apos;s own session&apos;s only. Visitors hear none of
          these: they have the <code>messenger</code> channel.
        </p>
      </Section>
      <Section id="channels" title="Channels">
        {channelDocs().map((c) => (
          <Channel key={c.kind} c={c} />
        ))}
      </Section>
      <Section id="messenger" title="The messenger channel">
        <p>
          A visitor&apos;s socket (with the visitor&apos;s access token) subscribes to <code>messenger</code>{" "}
          and receives its own conversations&apos; events, visitor-shaped, by <code>type</code>:
        </p>
        <Channel c={messengerChannel()} />
      </Section>
    </GuidePage>
  );
}
