import type { FieldNode } from "@/lib/docs/tree";

/** A response's fields, nested ones folded under their parent (native <details>: keyboard usable as it is). */
export function FieldTree({ fields }: { fields: FieldNode[] }) {
  return (
    <ul className="divide-y divide-slate-100 border-y border-slate-100 text-sm">
      {fields.map((f) => (
        <li key={f.name} className="py-2">
          {f.children.length > 0 ? (
            <details>
              <summary className="cursor-pointer">
                <Field field={f} />
              </summary>
              <div className="ml-4 mt-2">
                <FieldTree fields={f.children} />
              </div>
            </details>
          ) : (
            <Field field={f} />
          )}
        </li>
      ))}
    </ul>
  );
}

function Field({ field: f }: { field: FieldNode }) {
  return (
    <span>
      <code className="font-semibold">{f.name}</code>{" "}
      <span className="font-mono text-xs text-slate-500">{f.type}</span>
      {f.nullable && <span className="ml-2 text-xs text-amber-700">nullable</span>}
      {!f.required && <span className="ml-2 text-xs text-slate-400">optional</span>}
      {f.description && <span className="mt-0.5 block text-slate-600">{f.description}</span>}
    </span>
  );
}
