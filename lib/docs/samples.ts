import {
  asText,
  exampleRequest,
  fullUrl,
  isMultipart,
  type ExampleRequest,
  type RequestOptions,
} from "./request";
import type { DocEndpoint } from "./reference";

/** The languages every endpoint shows a request in, in tab order. */
export const LANGUAGES = [
  { id: "curl", label: "curl" },
  { id: "javascript", label: "JavaScript" },
  { id: "python", label: "Python" },
  { id: "php", label: "PHP" },
] as const;
export type Language = (typeof LANGUAGES)[number]["id"];

export interface Sample {
  language: Language;
  label: string;
  code: string;
}

/** Single-quoted for a POSIX shell: nothing inside is expanded. */
const sh = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

function curl(r: ExampleRequest): string {
  const lines = [`curl${r.method === "GET" ? "" : ` -X ${r.method}`} ${sh(fullUrl(r))}`];
  for (const [k, v] of Object.entries(r.headers)) lines.push(`-H ${sh(`${k}: ${v}`)}`);
  if (isMultipart(r)) {
    for (const [k, v] of Object.entries(r.body ?? {})) lines.push(`-F ${sh(`${k}=${asText(v)}`)}`);
    for (const [k, f] of Object.entries(r.files)) lines.push(`-F ${sh(`${k}=@${f}`)}`);
  } else if (r.body) {
    lines.push(`-H 'Content-Type: application/json'`, `-d ${sh(JSON.stringify(r.body))}`);
  }
  return lines.join(" \\\n  ");
}

function javascript(r: ExampleRequest): string {
  const headers = {
    ...r.headers,
    ...(r.body && !isMultipart(r) ? { "Content-Type": "application/json" } : {}),
  };
  const init: string[] = [];
  if (r.method !== "GET") init.push(`  method: ${JSON.stringify(r.method)},`);
  if (Object.keys(headers).length)
    init.push(`  headers: ${JSON.stringify(headers, null, 2).replace(/\n/g, "\n  ")},`);
  const pre: string[] = [];
  if (isMultipart(r)) {
    pre.push("const body = new FormData();");
    for (const [k, v] of Object.entries(r.body ?? {}))
      pre.push(`body.append(${JSON.stringify(k)}, ${JSON.stringify(asText(v))});`);
    for (const [k, f] of Object.entries(r.files))
      pre.push(`body.append(${JSON.stringify(k)}, fileInput.files[0]); // e.g. ${f}`);
    init.push("  body,");
  } else if (r.body) {
    init.push(`  body: JSON.stringify(${JSON.stringify(r.body, null, 2).replace(/\n/g, "\n  ")}),`);
  }
  const call = init.length
    ? `const response = await fetch(${JSON.stringify(fullUrl(r))}, {\n${init.join("\n")}\n});`
    : `const response = await fetch(${JSON.stringify(fullUrl(r))});`;
  return [...pre, ...(pre.length ? [""] : []), call, "const { data, meta } = await response.json();"].join(
    "\n",
  );
}

/** A JSON value as a Python literal. */
function py(v: unknown, indent = ""): string {
  if (v === null || v === undefined) return "None";
  if (v === true) return "True";
  if (v === false) return "False";
  if (typeof v === "number" || typeof v === "string") return JSON.stringify(v);
  const inner = indent + "    ";
  if (Array.isArray(v)) return v.length ? `[${v.map((x) => py(x, indent)).join(", ")}]` : "[]";
  const entries = Object.entries(v as Record<string, unknown>);
  if (!entries.length) return "{}";
  return `{\n${entries.map(([k, x]) => `${inner}${JSON.stringify(k)}: ${py(x, inner)},`).join("\n")}\n${indent}}`;
}

function python(r: ExampleRequest): string {
  const args = [`    ${JSON.stringify(r.url)},`];
  if (Object.keys(r.query).length) args.push(`    params=${py(r.query, "    ")},`);
  if (Object.keys(r.headers).length) args.push(`    headers=${py(r.headers, "    ")},`);
  if (isMultipart(r)) {
    const form = Object.fromEntries(Object.entries(r.body ?? {}).map(([k, v]) => [k, asText(v)]));
    if (Object.keys(form).length) args.push(`    data=${py(form, "    ")},`);
    const files = Object.entries(r.files).map(
      ([k, f]) => `${JSON.stringify(k)}: open(${JSON.stringify(f)}, "rb")`,
    );
    args.push(`    files={${files.join(", ")}},`);
  } else if (r.body) {
    args.push(`    json=${py(r.body, "    ")},`);
  }
  return [
    "import requests",
    "",
    `response = requests.${r.method.toLowerCase()}(`,
    ...args,
    ")",
    'data = response.json()["data"]',
  ].join("\n");
}

/** A JSON value as a PHP literal (objects as associative arrays, json_encode's input). */
function php(v: unknown, indent = ""): string {
  if (v === null || v === undefined) return "null";
  if (typeof v === "boolean" || typeof v === "number") return String(v);
  if (typeof v === "string") return `'${v.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;
  const inner = indent + "    ";
  if (Array.isArray(v)) return `[${v.map((x) => php(x, indent)).join(", ")}]`;
  const entries = Object.entries(v as Record<string, unknown>);
  if (!entries.length) return "new stdClass()";
  return `[\n${entries.map(([k, x]) => `${inner}${php(k)} => ${php(x, inner)},`).join("\n")}\n${indent}]`;
}

function phpCurl(r: ExampleRequest): string {
  const headers = Object.entries(r.headers).map(([k, v]) => `${k}: ${v}`);
  const opts = [`    CURLOPT_RETURNTRANSFER => true,`];
  if (r.method !== "GET") opts.push(`    CURLOPT_CUSTOMREQUEST => '${r.method}',`);
  if (isMultipart(r)) {
    const form: Record<string, unknown> = Object.fromEntries(
      Object.entries(r.body ?? {}).map(([k, v]) => [k, asText(v)]),
    );
    const fields = [
      ...Object.entries(form).map(([k, v]) => `        ${php(k)} => ${php(v)},`),
      ...Object.entries(r.files).map(([k, f]) => `        ${php(k)} => new CURLFile(${php(f)}),`),
    ];
    opts.push(`    CURLOPT_POSTFIELDS => [\n${fields.join("\n")}\n    ],`);
  } else if (r.body) {
    headers.push("Content-Type: application/json");
    opts.push(`    CURLOPT_POSTFIELDS => json_encode(${php(r.body, "    ")}),`);
  }
  if (headers.length) opts.push(`    CURLOPT_HTTPHEADER => [${headers.map((h) => php(h)).join(", ")}],`);
  return [
    "<?php",
    `$ch = curl_init(${php(fullUrl(r))});`,
    "curl_setopt_array($ch, [",
    ...opts,
    "]);",
    "$response = json_decode(curl_exec($ch), true);",
    "curl_close($ch);",
    "$data = $response['data'];",
  ].join("\n");
}

const RENDER: Record<Language, (r: ExampleRequest) => string> = { curl, javascript, python, php: phpCurl };

/** One request in one language (the guides' examples, built as the reference's are). */
export function renderSample(r: ExampleRequest, language: Language): string {
  return RENDER[language](r);
}

/** The endpoint's example request in every language. */
export function samplesOf(d: DocEndpoint, opts: RequestOptions = {}): Sample[] {
  const r = exampleRequest(d, opts);
  return LANGUAGES.map((l) => ({ language: l.id, label: l.label, code: RENDER[l.id](r) }));
}
