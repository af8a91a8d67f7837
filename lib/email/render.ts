/**
 * Emails as plain text and simple HTML: one column of tables with inline styles, which common mail programs
 * render alike (no stylesheet, no web fonts, no images). Every value from a user is escaped here, once.
 */

export interface EmailBlock {
  author: string;
  /** Plain text; line breaks kept. */
  text: string;
  attachments?: { name: string; url: string }[];
}

export interface EmailContent {
  /** The app's accent colour, #rrggbb. */
  accent: string;
  /** The line above the messages. */
  intro: string;
  blocks: EmailBlock[];
  /** The button under the messages. */
  action?: { label: string; url: string };
  /** Links to pick one of, one a line (a rating request's scores). */
  choices?: { label: string; url: string }[];
  /** Small print: why this email came, how to answer, how to stop. */
  footer: string[];
  unsubscribeUrl?: string;
}

const ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};
export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

/** Only http(s) links are written into an href: anything else (javascript:, data:) is shown, never linked. */
const safeUrl = (url: string) => (/^https?:\/\//i.test(url) ? url : undefined);
const COLOR = /^#[0-9a-f]{6}$/i;

const paragraphs = (text: string) =>
  escapeHtml(text.trim())
    .split(/\n{2,}/)
    .map((p) => `<p style="margin:0 0 12px 0">${p.replace(/\n/g, "<br>")}</p>`)
    .join("");

function link(label: string, url: string, style = ""): string {
  const href = safeUrl(url);
  return href ? `<a href="${escapeHtml(href)}" style="${style}">${escapeHtml(label)}</a>` : escapeHtml(label);
}

export function renderText(c: EmailContent): string {
  const out = [c.intro, ""];
  for (const b of c.blocks) {
    out.push(`${b.author}:`, b.text.trim());
    for (const a of b.attachments ?? []) out.push(`[${a.name}] ${a.url}`);
    out.push("");
  }
  if (c.action) out.push(`${c.action.label}: ${c.action.url}`, "");
  for (const ch of c.choices ?? []) out.push(`${ch.label}: ${ch.url}`);
  if (c.choices?.length) out.push("");
  out.push("-- ", ...c.footer);
  if (c.unsubscribeUrl) out.push(`Unsubscribe: ${c.unsubscribeUrl}`);
  return out.join("\n") + "\n";
}

export function renderHtml(c: EmailContent): string {
  const accent = COLOR.test(c.accent) ? c.accent : "#2563eb";
  const blocks = c.blocks
    .map((b) => {
      const files = (b.attachments ?? [])
        .map((a) => `<div style="margin:4px 0">📎 ${link(a.name, a.url, `color:${accent}`)}</div>`)
        .join("");
      return (
        `<tr><td style="padding:12px 16px;border-left:3px solid ${accent};background:#f8fafc">` +
        `<div style="font-weight:bold;margin:0 0 6px 0">${escapeHtml(b.author)}</div>` +
        `${paragraphs(b.text)}${files}</td></tr><tr><td style="height:12px"></td></tr>`
      );
    })
    .join("");
  const action = c.action
    ? `<tr><td style="padding:8px 0 20px 0">${link(
        c.action.label,
        c.action.url,
        `display:inline-block;padding:10px 18px;background:${accent};color:#ffffff;text-decoration:none;border-radius:6px`,
      )}</td></tr>`
    : "";
  const choices = (c.choices ?? [])
    .map(
      (ch) =>
        `<tr><td style="padding:4px 0">${link(ch.label, ch.url, `color:${accent};font-size:17px;text-decoration:none`)}</td></tr>`,
    )
    .join("");
  const footer = [
    ...c.footer.map(escapeHtml),
    ...(c.unsubscribeUrl ? [link("Unsubscribe", c.unsubscribeUrl, "color:#64748b")] : []),
  ].join("<br>");
  return (
    `<!DOCTYPE html><html><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width"></head>` +
    `<body style="margin:0;padding:0;background:#ffffff">` +
    `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:600px;margin:0 auto;` +
    `font-family:Arial,Helvetica,sans-serif;font-size:15px;line-height:1.5;color:#0f172a">` +
    `<tr><td style="padding:20px 0 12px 0">${escapeHtml(c.intro)}</td></tr>${blocks}${action}${choices}` +
    `<tr><td style="padding:16px 0;border-top:1px solid #e2e8f0;font-size:12px;color:#64748b">${footer}</td></tr>` +
    `</table></body></html>`
  );
}
