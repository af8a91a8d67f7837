import Link from "next/link";
import { curlOf } from "@/lib/docs/guides/calls";
import {
  DEFAULTS,
  MAX_REACHABLE,
  PAGINATION_CALLS,
  pagedLists,
  pagingParams,
  V1_META,
  V1_PARAMS,
  V2_META,
  V2_PARAMS,
  WALK_EXAMPLE,
  workedBorder,
  type PagedList,
} from "@/lib/docs/guides/pagination";
import type { DocParam } from "@/lib/docs/params";
import { Code, GuidePage, guideMetadata, Section } from "../_components/guide-page";

const SLUG = "pagination";
export const metadata = guideMetadata(SLUG);

/** Positions hold bigints inside; the API writes them as numbers. */
const json = (v: unknown) => JSON.stringify(v, (_, x: unknown) => (typeof x === "bigint" ? Number(x) : x));

function Params({ rows, label }: { rows: DocParam[]; label: string }) {
  return (
    <table className="w-full text-left text-sm" aria-label={label}>
      <thead className="text-xs uppercase text-slate-500">
        <tr>
          <th className="py-1 pr-4">Parameter</th>
          <th className="py-1 pr-4">Type</th>
          <th className="py-1">Limits</th>
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-100">
        {rows.map((p) => (
          <tr key={p.name}>
            <td className="py-1.5 pr-4 font-mono text-xs">{p.name}</td>
            <td className="py-1.5 pr-4 font-mono text-xs">{p.type}</td>
            <td className="py-1.5">{p.limits.join("; ")}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Lists({ lists }: { lists: PagedList[] }) {
  return (
    <ul className="columns-1 font-mono text-xs sm:columns-2">
      {lists.map((l) => (
        <li key={l.label}>
          <Link className="text-blue-700 hover:underline" href={l.href}>
            {l.label}
          </Link>
        </li>
      ))}
    </ul>
  );
}

export default function PaginationGuide() {
  const c = PAGINATION_CALLS;
  const v2 = DEFAULTS.v2;
  const border = workedBorder();
  const keyset = (slug: "v1" | "v2") => pagedLists(slug).filter((l) => l.kind === "keyset");
  const offset = pagedLists("v2").filter((l) => l.kind === "offset");
  return (
    <GuidePage slug={SLUG}>
      <Section id="model" title="How lists page">
        <p>
          Lists page by position, not by page number: each list has a key (for instance a conversation&apos;s
          last update and ID, a part&apos;s ID), and a page answers where the next one starts. Rows added or
          removed elsewhere in the list never shift a page. The leads lists are the exception: they page by
          offset (below). Version 3 pages exactly as version 2.
        </p>
      </Section>

      <Section id="v2" title="Version 2 (and 3)">
        <Params rows={pagingParams("v2", V2_PARAMS)} label="Version 2 paging parameters" />
        <p>
          Without parameters a page is the newest {v2.limit} rows (
          <code>paginate_direction={v2.direction}</code>
          from the end), in <code>{v2.order}</code> order. <code>paginate_position</code> is a JSON array: the
          key (or its first columns) of the row to page from, as the last page&apos;s <code>meta</code> gave
          it; that row itself is left out unless <code>paginate_including=true</code>.{" "}
          <code>paginate_direction=around</code> reads half the page before the position and half after it,
          and needs a position.
        </p>
        <p>
          <code>meta</code> has <code>{V2_META.join("</code> and <code>")}</code>: for each side the page
          read, the position to go on from, or <code>null</code> when nothing remains on that side. For
          example <code>{json(border.v2More)}</code>, and at the end <code>{json(border.v2End)}</code>.
        </p>
        <Code code={curlOf(c.v2First)} label="First page" />
        <Code code={curlOf(c.v2Next)} label="Next page" />
        <Code code={curlOf(c.v2After)} label="Rows after a position, oldest first" />
        <Code code={WALK_EXAMPLE} label="Walking every page" />
        <p>Lists that page this way:</p>
        <Lists lists={keyset("v2")} />
      </Section>

      <Section id="v1" title="Version 1">
        <Params rows={pagingParams("v1", V1_PARAMS)} label="Version 1 paging parameters" />
        <p>
          Version 1 pages one way: newest first by default, and <code>after</code> is where the previous page
          ended in that order (with <code>page_order=asc</code>, the rows after it, oldest first).{" "}
          <code>meta.{V1_META[0]}</code> is the cursor to send as the next <code>after</code>: a string that
          holds the whole key, so that rows sharing a timestamp are never skipped, such as{" "}
          <code>{json(border.v1More)}</code>; <code>{json(border.v1End)}</code> at the end. A bare number
          names only the key&apos;s first column.
        </p>
        <Code code={curlOf(c.v1Next)} label="Version 1 next page" />
        <Lists lists={keyset("v1")} />
      </Section>

      <Section id="offset" title="Leads lists: offset and limit">
        <p>
          Users and leads lists are sorted by any property (<code>sort_prop</code>, <code>sort_order</code>)
          and answer a <code>total</code>, so they page by <code>offset</code> and <code>limit</code>. At most{" "}
          {MAX_REACHABLE.toLocaleString("en")} rows are reachable: <code>offset + limit</code> beyond that is
          a <code>ValidationError</code> on <code>offset</code>. Narrow the filters to reach the rest, or
          export them.
        </p>
        <Code code={curlOf(c.leads)} label="A page of leads" />
        <Lists lists={offset} />
      </Section>

      <Section id="end" title="Past the end, and ordering">
        <ul className="list-disc pl-5">
          <li>
            A position past the last row answers an empty <code>data</code> with the side&apos;s next position{" "}
            <code>null</code>: not an error. An offset past the total answers an empty page too.
          </li>
          <li>
            A position that is not one of the list&apos;s keys (too many elements, not numbers, out of range)
            is a <code>ValidationError</code> naming the parameter.
          </li>
          <li>
            Pages of one walk never overlap and skip nothing that stays put: rows are ordered by the whole
            key, its last column an ID, so ties are broken the same way every time.
          </li>
          <li>
            A row whose key changes during a walk moves: a conversation with a new message goes to the front
            of a newest-first list, where a walk that has passed it will not see it again. To catch up later,
            page with <code>paginate_direction=after</code> from a position you were given; its{" "}
            <code>next_after_position</code> says where to go on.
          </li>
          <li>
            Offsets are counted anew on each request: rows that change while paging a leads list may shift
            between pages.
          </li>
        </ul>
      </Section>
    </GuidePage>
  );
}
