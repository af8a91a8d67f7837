import fs from "node:fs";

/** The parser's tests' messages: the fixtures, and small ones built in a test. */
export const fixture = (name: string) => fs.readFileSync(new URL(`./fixtures/${name}`, import.meta.url));

/** A small message built in the test: headers (From and To included unless overridden) and a text body. */
export function eml(headers: string[], body: string, contentType = "text/plain; charset=utf-8"): Buffer {
  const names = new Set(headers.map((h) => h.slice(0, h.indexOf(":")).toLowerCase()));
  const defaults = [
    "From: Anna Berg <anna@example.com>",
    "To: reply+tok123@mail.test",
    "Subject: Re: Hello",
    "Message-ID: <m1@example.com>",
    "MIME-Version: 1.0",
    `Content-Type: ${contentType}`,
  ].filter((h) => !names.has(h.slice(0, h.indexOf(":")).toLowerCase()));
  return Buffer.from([...headers, ...defaults, "", body].join("\r\n"));
}

export const attachmentSummary = (a: { filename: string; contentType: string; content: Buffer }) => ({
  filename: a.filename,
  contentType: a.contentType,
  size: a.content.length,
});
