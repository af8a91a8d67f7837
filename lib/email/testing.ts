import net from "node:net";
import nodemailer from "nodemailer";
import type Mail from "nodemailer/lib/mailer";
import { SMTPServer } from "smtp-server";
import { simpleParser, type ParsedMail } from "mailparser";
import type { EmailConfig } from "../config/env";

export interface SunkEmail {
  envelope: { from: string; to: string[] };
  raw: Buffer;
  parsed: ParsedMail;
}

/** A real SMTP server on loopback that keeps what it receives (tests and the bench send mail only to it). */
export interface SmtpSink {
  port: number;
  url: string;
  received: SunkEmail[];
  /** The next `times` messages are refused at DATA (or at RCPT) with this reply code. */
  refuse(code: number, times: number, at?: "data" | "rcpt"): void;
  /** Resolves once `n` messages have arrived in all. */
  count(n: number, ms?: number): Promise<SunkEmail[]>;
  close(): Promise<void>;
}

export async function startSmtpSink(): Promise<SmtpSink> {
  const received: SunkEmail[] = [];
  let refusals: { code: number; left: number; at: "data" | "rcpt" } | undefined;
  const waiters: (() => void)[] = [];
  const refusal = (at: "data" | "rcpt") => {
    if (!refusals || refusals.at !== at || refusals.left <= 0) return undefined;
    refusals.left--;
    return Object.assign(new Error(`refused by the test sink (${refusals.code})`), {
      responseCode: refusals.code,
    });
  };
  const server = new SMTPServer({
    disabledCommands: ["STARTTLS", "AUTH"],
    authOptional: true,
    logger: false,
    size: 30 * 1024 * 1024,
    // Senders keep pooled connections open: closing drops them at once rather than after smtp-server's 30 s.
    closeTimeout: 50,
    onRcptTo(_address, _session, cb) {
      cb(refusal("rcpt") ?? undefined);
    },
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        const err = refusal("data");
        if (err) return cb(err);
        const raw = Buffer.concat(chunks);
        simpleParser(raw).then(
          (parsed) => {
            const from = session.envelope.mailFrom;
            received.push({
              envelope: {
                from: from ? from.address : "",
                to: session.envelope.rcptTo.map((r) => r.address),
              },
              raw,
              parsed,
            });
            for (const w of waiters.splice(0)) w();
            cb();
          },
          (e: Error) => cb(e),
        );
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.server.address() as { port: number }).port;
  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    received,
    refuse: (code, times, at = "data") => (refusals = { code, left: times, at }),
    count: async (n, ms = 20_000) => {
      const end = Date.now() + ms;
      while (received.length < n) {
        if (Date.now() > end) throw new Error(`the SMTP sink got ${received.length} emails, not ${n}`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 200);
        });
      }
      return received;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A test server's email settings: mail to the sink, addresses at mail.test, no delays. */
export const testEmailConfig = (
  sink: SmtpSink | undefined,
  more: Partial<EmailConfig> = {},
): EmailConfig => ({
  smtpUrl: sink?.url,
  dkim: undefined,
  domain: "mail.test",
  inboundPort: undefined,
  inboundSecret: undefined,
  continuityDelay: 0,
  ...more,
});

/** A message sent over SMTP to a server's listener on loopback, as a visitor's or an operator's mail program would. */
export async function sendOverSmtp(port: number, message: Mail.Options): Promise<void> {
  const smtp = nodemailer.createTransport({ host: "127.0.0.1", port, secure: false, ignoreTLS: true });
  try {
    await smtp.sendMail(message);
  } finally {
    smtp.close();
  }
}

/** A raw SMTP dialogue with the listener: each command's reply line, as a mail server would see them. */
export async function smtpDialogue(port: number, commands: string[]): Promise<string[]> {
  const socket = net.connect(port, "127.0.0.1");
  const lines: string[] = [];
  let buffer = "";
  const next = () =>
    new Promise<string>((resolve, reject) => {
      const look = () => {
        // A reply ends with a line whose code is followed by a space.
        const m = /^(\d{3}) .*$/m.exec(buffer);
        if (!m) return false;
        const end = buffer.indexOf("\n", m.index) + 1;
        const reply = buffer.slice(0, end).trim().split("\n").at(-1)!.trim();
        buffer = buffer.slice(end);
        resolve(reply);
        return true;
      };
      if (look()) return;
      const onData = (d: Buffer) => {
        buffer += d.toString();
        if (look()) socket.off("data", onData);
      };
      socket.on("data", onData);
      socket.once("error", reject);
    });
  await next();
  for (const c of commands) {
    socket.write(`${c}\r\n`);
    lines.push(await next());
  }
  socket.end();
  return lines;
}
