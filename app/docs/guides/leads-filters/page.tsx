import Link from "next/link";
import { curlOf } from "@/lib/docs/guides/calls";
import {
  conditionTable,
  FILTER_CALLS,
  FILTER_EXAMPLES,
  filterEndpoints,
  filterErrors,
  LIMITS,
  propertyTable,
} from "@/lib/docs/guides/leads-filters";
import { Code, GuidePage, guideMetadata, Section } from "../_components/guide-page";

const SLUG = "leads-filters";
export const metadata = guideMetadata(SLUG);

const pretty = (v: unknown) => JSON.stringify(v, null, 2);

export default function LeadsFiltersGuide() {
  return (
    <GuidePage slug={SLUG}>
      <Section id="tree" title="The filters tree">
        <p>
          The users and leads lists (and the endpoints below) take <code>filters</code>: a JSON tree, sent
          JSON-encoded in the query string or as JSON in a body. A group is{" "}
          <code>{'{"type": "and" | "or", "filters": [...]}'}</code>; its items are conditions or groups,
          nested at most {LIMITS.depth} levels, with at most {LIMITS.conditions} conditions in all. A bare
          array is an <code>and</code> group. A condition is{" "}
          <code>{'{"property_name": …, "type": …, "value": {…}}'}</code>.
        </p>
        <Code code={curlOf(FILTER_CALLS.list)} label="Listing users with filters" />
        <ul className="columns-1 font-mono text-xs sm:columns-2" aria-label="Endpoints taking filters">
          {filterEndpoints().map((l) => (
            <li key={l.label}>
              <Link className="text-blue-700 hover:underline" href={l.href}>
                {l.label}
              </Link>
            </li>
          ))}
        </ul>
      </Section>

      <Section id="properties" title="Properties">
        <p>
          A name without <code>$</code> is a custom property: its values are untyped JSON, so it takes every
          value type&apos;s conditions. A <code>$</code> name is a system property,{" "}
          <code>$event_&lt;event type ID&gt;_count</code>, <code>_first</code> or <code>_last</code> (how many
          times the user did the event, and when first and last), or <code>$segment</code> and{" "}
          <code>$tag</code>. Names are 1 to {LIMITS.text} characters.
        </p>
        <table className="w-full text-left text-sm" aria-label="Conditions by property">
          <thead className="text-xs uppercase text-slate-500">
            <tr>
              <th className="py-1 pr-4">Property</th>
              <th className="py-1 pr-4">Kind</th>
              <th className="py-1">Condition types</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {propertyTable().map((r) => (
              <tr key={r.names} className="align-top">
                <td className="py-1.5 pr-4 font-mono text-xs">{r.names}</td>
                <td className="py-1.5 pr-4">{r.kind}</td>
                <td className="py-1.5 font-mono text-xs">{r.types.join(", ")}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </Section>

      <Section id="conditions" title="Condition types and values">
        <p>
          Each type takes its <code>value</code> in one shape. A plain number on <code>daysless</code> and{" "}
          <code>daysmore</code> counts days back from now (0 to {LIMITS.days}); dates are Unix seconds or ISO
          8601; text is at most {LIMITS.text} characters.
        </p>
        <table className="w-full text-left text-sm" aria-label="Condition types">
          <thead className="text-xs uppercase text-slate-500">
            <tr>
              <th className="py-1 pr-4">Types</th>
              <th className="py-1 pr-4">Value</th>
              <th className="py-1">On</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {conditionTable().map((r) => (
              <tr key={r.types.join()} className="align-top">
                <td className="py-1.5 pr-4 font-mono text-xs">{r.types.join(", ")}</td>
                <td className="py-1.5 pr-4 font-mono text-xs">{r.value}</td>
                <td className="py-1.5">{r.appliesTo.join(", ")}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </Section>

      <Section id="examples" title="Examples">
        {FILTER_EXAMPLES.map((e) => (
          <div key={e.id} id={`example-${e.id}`}>
            <h3 className="font-medium text-slate-900">{e.title}</h3>
            <Code code={pretty(e.filters)} label={e.title} />
          </div>
        ))}
        <p>
          <code>in_segment</code> takes a segment&apos;s ID or name; a segment&apos;s own filters are applied
          as they are when the request runs.
        </p>
      </Section>

      <Section id="errors" title="Errors">
        <p>
          A filter the grammar refuses is a <code>ValidationError</code> (400) before anything is read.{" "}
          <code>error_fields</code> names the offending place by its path in the request: <code>filters</code>
          , then <code>filters.&lt;index&gt;</code> for each group&apos;s item (a bare array has no{" "}
          <code>.filters</code> step), then the condition&apos;s field.
        </p>
        {filterErrors().map((e) => (
          <div key={e.id} id={`error-${e.id}`}>
            <h3 className="font-medium text-slate-900">{e.what}</h3>
            <Code code={pretty(e.filters)} label={`${e.what}: filters`} />
            <Code code={pretty({ error_fields: e.errorFields })} label={`${e.what}: error_fields`} />
          </div>
        ))}
      </Section>
    </GuidePage>
  );
}
