"use client";

import { useState } from "react";
import { ErrorAlert } from "@/components/ui/error-alert";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import type { UserCard } from "@/lib/client/leads-types";
import { useSetUserProps } from "@/lib/client/use-set-user-props";
import { cleanUserText, UserText } from "@/components/ui/user-text";
import { asText, formatValue, propLabel } from "../format";

/** Lists are edited as comma-separated text; everything else as text the server types (12 → integer). */
function toInput(v: unknown): string {
  return asText(v);
}
function fromInput(text: string, was: unknown): unknown {
  return Array.isArray(was)
    ? text
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean)
    : text;
}

function PropList({ props, label }: { props: Record<string, unknown>; label: (k: string) => string }) {
  const entries = Object.entries(props);
  if (!entries.length) return <p className="text-sm text-slate-500">None.</p>;
  return (
    <dl className="grid grid-cols-[minmax(0,10rem)_minmax(0,1fr)] gap-x-4 gap-y-1 text-sm">
      {entries.map(([k, v]) => (
        <div key={k} className="contents">
          <dt className="truncate text-slate-500">
            <UserText>{label(k)}</UserText>
          </dt>
          <dd className="truncate text-slate-900">
            <UserText>{formatValue(v)}</UserText>
          </dd>
        </div>
      ))}
    </dl>
  );
}

export function CardProps({ user }: { user: UserCard }) {
  const userId = String(user.id);
  const set = useSetUserProps(userId);
  const [editing, setEditing] = useState<{ key: string; text: string } | null>(null);
  const [adding, setAdding] = useState({ key: "", text: "" });
  const eventNames = new Map(user.events.map((e) => [String(e.event_type.id), e.event_type.name]));
  const eventLabel = (k: string) => {
    const m = /^\$event_(\d+)_(first|last|count)$/.exec(k);
    return m ? `${eventNames.get(m[1]!) ?? m[1]}: ${m[2]}` : k;
  };
  const custom = Object.entries(user.props_custom).sort(([a], [b]) => a.localeCompare(b));

  return (
    <div className="space-y-6">
      <section aria-labelledby="sys-props">
        <h2 id="sys-props" className="mb-2 text-sm font-semibold text-slate-900">
          System properties
        </h2>
        <PropList props={user.props} label={(k) => propLabel(k)} />
      </section>
      <section aria-labelledby="custom-props">
        <h2 id="custom-props" className="mb-2 text-sm font-semibold text-slate-900">
          Custom properties
        </h2>
        <ErrorAlert error={set.error} title="The property was not saved" className="mb-2" />
        <ul className="divide-y divide-slate-100 text-sm" aria-label="Custom properties">
          {custom.map(([k, v]) => (
            <li key={k} className="flex flex-wrap items-center gap-2 py-1.5" data-prop={k}>
              <span className="w-40 truncate text-slate-500">
                <UserText>{k}</UserText>
              </span>
              {editing?.key === k ? (
                <form
                  className="flex flex-1 gap-2"
                  onSubmit={(e) => {
                    e.preventDefault();
                    set.mutate([{ op: "update_or_create", key: k, value: fromInput(editing.text, v) }]);
                    setEditing(null);
                  }}
                >
                  <Input
                    aria-label={`Value of ${cleanUserText(k)}`}
                    className="h-8"
                    autoFocus
                    value={editing.text}
                    onChange={(e) => setEditing({ key: k, text: e.target.value })}
                    onKeyDown={(e) => e.key === "Escape" && setEditing(null)}
                  />
                  <Button type="submit" size="sm">
                    Save
                  </Button>
                </form>
              ) : (
                <>
                  <span className="min-w-0 flex-1 truncate text-slate-900">
                    <UserText>{formatValue(v)}</UserText>
                  </span>
                  <Button
                    size="sm"
                    variant="ghost"
                    aria-label={`Edit ${cleanUserText(k)}`}
                    onClick={() => setEditing({ key: k, text: toInput(v) })}
                  >
                    Edit
                  </Button>
                  <Button
                    size="sm"
                    variant="ghost"
                    aria-label={`Delete ${cleanUserText(k)}`}
                    onClick={() => set.mutate([{ op: "delete", key: k }])}
                  >
                    Delete
                  </Button>
                </>
              )}
            </li>
          ))}
        </ul>
        <form
          className="mt-2 flex flex-wrap gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            if (!adding.key.trim() || !adding.text.trim()) return;
            set.mutate([{ op: "update_or_create", key: adding.key.trim(), value: adding.text }]);
            setAdding({ key: "", text: "" });
          }}
        >
          <Input
            aria-label="New property name"
            placeholder="Property"
            className="h-8 w-40"
            value={adding.key}
            maxLength={255}
            onChange={(e) => setAdding({ ...adding, key: e.target.value })}
          />
          <Input
            aria-label="New property value"
            placeholder="Value"
            className="h-8 w-48"
            value={adding.text}
            maxLength={255}
            onChange={(e) => setAdding({ ...adding, text: e.target.value })}
          />
          <Button type="submit" size="sm" variant="secondary">
            Add property
          </Button>
        </form>
      </section>
      <section aria-labelledby="event-props">
        <h2 id="event-props" className="mb-2 text-sm font-semibold text-slate-900">
          Event properties
        </h2>
        <PropList props={user.props_events} label={eventLabel} />
      </section>
    </div>
  );
}
