// bench:alerts' receivers, in the benchmark's process: an HTTP webhook receiver and a real SMTP server (smtp-server),
// each noting what arrived, when, and the marker of the error it was about.
import http from "node:http";
import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

/** The marker word of a bench alert marker error, from a message, title or subject. */
export const markerOf = (text) => /bench alert marker ([g-z]+)/.exec(text ?? "")?.[1] ?? null;

/** The webhook receiver: every POST's path, Idempotency-Key, rule, issue and marker, with when it arrived. */
export function startReceiver(port) {
  const receipts = [];
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const at = performance.now();
      let body = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString());
      } catch {
        /* counted below without a marker */
      }
      receipts.push({
        at,
        path: req.url,
        key: req.headers["idempotency-key"] ?? null,
        rules: (body.triggering_rules ?? []).join(","),
        issue: String(body.id ?? ""),
        marker: markerOf(body.message) ?? markerOf(body.event?.title),
      });
      res.writeHead(200, { "content-type": "text/plain" }).end("ok");
    });
  });
  return new Promise((resolve) => server.listen(port, "127.0.0.1", () => resolve({ receipts, close: () => new Promise((r) => server.close(r)) })));
}

/** The SMTP server: every message's recipient, Message-ID and marker, with when it was received. */
export function startSmtp(port) {
  const mails = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      const chunks = [];
      stream.on("data", (c) => chunks.push(c));
      stream.on("end", () => {
        const at = performance.now();
        simpleParser(Buffer.concat(chunks)).then((m) => {
          mails.push({
            at,
            to: session.envelope.rcptTo.map((r) => r.address).join(","),
            messageId: m.messageId ?? null,
            marker: markerOf(m.subject) ?? markerOf(m.text),
          });
          callback();
        }, callback);
      });
    },
  });
  return new Promise((resolve) => server.listen(port, "127.0.0.1", () => resolve({ mails, close: () => new Promise((r) => server.close(r)) })));
}
