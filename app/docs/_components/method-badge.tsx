const COLORS: Record<string, string> = {
  GET: "bg-emerald-100 text-emerald-800",
  POST: "bg-blue-100 text-blue-800",
  PUT: "bg-amber-100 text-amber-800",
  PATCH: "bg-amber-100 text-amber-800",
  DELETE: "bg-red-100 text-red-800",
};

export function MethodBadge({ method }: { method: string }) {
  return (
    <span
      className={`rounded px-1.5 py-0.5 font-mono text-xs font-semibold ${COLORS[method] ?? "bg-slate-100"}`}
    >
      {method}
    </span>
  );
}
