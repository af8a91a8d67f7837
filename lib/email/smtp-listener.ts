import { SMTPServer, type SMTPServerDataStream } from "smtp-server";
import { errorLine } from "../db/client";
import type { Runtime } from "../server/runtime";
import { MAX_INBOUND_BYTES, receiveEmail } from "./receive";

const smtpError = (code: number, message: string) =>
  Object.assign(new Error(message), { responseCode: code });

function readAll(stream: SMTPServerDataStream): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on("data", (c: Buffer) => chunks.push(c));
    stream.on("end", () => resolve(Buffer.concat(chunks)));
    stream.on("error", reject);
  });
}

export interface SmtpListener {
  port: number;
  close(): Promise<void>;
}

/**
 * The built-in MX for INBOUND_EMAIL_DOMAIN: mail for our addresses only (no relaying), at most 25 MB (552 past it,
 * announced with SIZE), each message received as /api/email/inbound receives it. A refusal a sender should not
 * retry is a 550 with the reason; a flood or an outage of ours is a 451, which mail servers retry later.
 */
export async function startSmtpListener(rt: Runtime, port: number, host: string): Promise<SmtpListener> {
  const domain = rt.config.email.domain;
  const log = rt.log ?? console.error;
  const server = new SMTPServer({
    name: domain,
    banner: "Relay inbound mail",
    disabledCommands: ["AUTH"],
    authOptional: true,
    size: MAX_INBOUND_BYTES,
    maxClients: 100,
    socketTimeout: 60_000,
    // At shutdown a connection still open gets a second to finish its message, not smtp-server's 30 s.
    closeTimeout: 1_000,
    logger: false,
    onRcptTo(address, _session, cb) {
      if (!address.address.toLowerCase().endsWith(`@${domain}`))
        return cb(smtpError(550, `5.7.1 Relaying denied: we take mail for @${domain} only`));
      cb();
    },
    onData(stream, session, cb) {
      void (async () => {
        const raw = await readAll(stream);
        if (stream.sizeExceeded) return cb(smtpError(552, "5.3.4 Message too big: at most 25 MB"));
        const from = session.envelope.mailFrom;
        const r = await receiveEmail(rt, raw, {
          envelope: {
            from: from ? from.address : "",
            to: session.envelope.rcptTo.map((t) => t.address),
          },
        });
        if (r.outcome === "refused")
          return cb(smtpError(r.temporary ? 451 : 550, `${r.temporary ? "4.7.1" : "5.7.1"} ${r.reason}`));
        cb();
      })().catch((err: unknown) => {
        log(`email: SMTP listener could not take a message: ${errorLine(err)}`);
        cb(smtpError(451, "4.3.0 Temporary failure, try again later"));
      });
    },
  });
  server.on("error", (err) => log(`email: SMTP listener: ${errorLine(err)}`));
  await new Promise<void>((resolve, reject) => {
    server.server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
  const addr = server.server.address();
  return {
    port: typeof addr === "object" && addr ? addr.port : port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
