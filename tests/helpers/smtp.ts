// A real SMTP server for tests (smtp-server, of the Nodemailer project) on a loopback port: it asks for AUTH PLAIN or
// LOGIN with a user and password, offers STARTTLS with a self-signed certificate made by Debian's openssl when asked
// (`tls: true`), and keeps every message it receives, parsed by mailparser. No mock transport anywhere.
//
//   const smtp = await startSmtp();
//   const mailer = createMailer(loadMailConfig({ FAULTLINE_SMTP_URL: smtp.url, FAULTLINE_MAIL_FROM: "f@example.com" }));
//   await mailer.send({ to: "a@example.com", … });
//   const mail = await smtp.waitFor("a@example.com", 10_000);   // mail.subject, mail.text, mail.html, mail.headers
//   await smtp.close();
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { type AddressObject, type ParsedMail, simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

export type ReceivedMail = {
  /** The SMTP envelope: MAIL FROM and every RCPT TO. */
  envelope: { from: string; to: string[] };
  /** Whether the session was encrypted (STARTTLS) and who authenticated. */
  secure: boolean;
  user: string | undefined;
  raw: string;
  subject: string;
  /** The From header's text, e.g. `"Faultline" <alerts@example.com>`. */
  from: string;
  text: string;
  html: string;
  headers: ParsedMail["headers"];
  parsed: ParsedMail;
};

export type TestSmtp = {
  /** smtp://user:password@127.0.0.1:port, for FAULTLINE_SMTP_URL. */
  url: string;
  port: number;
  user: string;
  password: string;
  /** The certificate (PEM) the server offers with STARTTLS, to trust in createMailer({ ca }); undefined without TLS. */
  ca: string | undefined;
  /** Every message received so far, in order of arrival. */
  messages: ReceivedMail[];
  /**
   * The first message to `to` (an envelope recipient) that no earlier waitFor returned: asking twice for the same
   * address gives its first, then its second message. Rejects after timeoutMs with what did arrive.
   */
  waitFor(to: string, timeoutMs: number): Promise<ReceivedMail>;
  close(): Promise<void>;
};

export type SmtpOptions = {
  /** Offer STARTTLS (with a certificate made by openssl for this run). Throws when openssl is not installed. */
  tls?: boolean;
  /** Listen on this port (default: any free one). */
  port?: number;
  user?: string;
  password?: string;
  /** Called for every message as it arrives (tests/e2e/smtp-serve.ts writes them to files). */
  onMessage?: (mail: ReceivedMail) => void;
};

/** True when openssl is on this machine (STARTTLS tests need it for their certificate). */
export function hasOpenssl(): boolean {
  try {
    execFileSync("openssl", ["version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

function selfSignedCertificate(): { key: string; cert: string } {
  const dir = mkdtempSync(path.join(tmpdir(), "faultline-smtp-"));
  try {
    execFileSync(
      "openssl",
      [
        "req",
        "-x509",
        "-newkey",
        "ec",
        "-pkeyopt",
        "ec_paramgen_curve:prime256v1",
        "-nodes",
        "-days",
        "1",
        "-subj",
        "/CN=localhost",
        "-addext",
        "subjectAltName=IP:127.0.0.1,DNS:localhost",
        "-keyout",
        path.join(dir, "key.pem"),
        "-out",
        path.join(dir, "cert.pem"),
      ],
      { stdio: "ignore" },
    );
    return { key: readFileSync(path.join(dir, "key.pem"), "utf8"), cert: readFileSync(path.join(dir, "cert.pem"), "utf8") };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const addressText = (a: AddressObject | AddressObject[] | undefined) => (Array.isArray(a) ? a.map((x) => x.text).join(", ") : (a?.text ?? ""));

export async function startSmtp(options: SmtpOptions = {}): Promise<TestSmtp> {
  const user = options.user ?? "faultline";
  const password = options.password ?? "s3cret-smtp-pass";
  const tls = options.tls ? selfSignedCertificate() : undefined;
  const messages: ReceivedMail[] = [];
  const taken = new Set<ReceivedMail>();
  const waiters = new Set<() => void>();

  const server = new SMTPServer({
    logger: false,
    banner: "Faultline test SMTP",
    authMethods: ["PLAIN", "LOGIN"],
    // Without TLS, AUTH travels in the clear: only on loopback, only in tests.
    allowInsecureAuth: true,
    disabledCommands: tls ? [] : ["STARTTLS"],
    ...(tls ? { key: tls.key, cert: tls.cert } : {}),
    size: 10 * 1024 * 1024,
    // close() waits this long for clients to quit before ending their connections (smtp-server's default: 30 s); a
    // test that leaves a pooled mailer open then costs a second, not half a minute.
    closeTimeout: 1000,
    onAuth(auth, _session, callback) {
      if (auth.username === user && auth.password === password) callback(null, { user });
      else callback(Object.assign(new Error("Invalid username or password"), { responseCode: 535 }));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("error", callback);
      stream.on("end", () => {
        const raw = Buffer.concat(chunks);
        simpleParser(raw).then(
          (parsed) => {
            const mail: ReceivedMail = {
              envelope: { from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "", to: session.envelope.rcptTo.map((r) => r.address) },
              secure: session.secure,
              user: session.user,
              raw: raw.toString("utf8"),
              subject: parsed.subject ?? "",
              from: addressText(parsed.from),
              text: parsed.text ?? "",
              html: typeof parsed.html === "string" ? parsed.html : "",
              headers: parsed.headers,
              parsed,
            };
            messages.push(mail);
            options.onMessage?.(mail);
            for (const wake of waiters) wake();
            callback();
          },
          (err: Error) => callback(err),
        );
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  const port = (server.server.address() as AddressInfo).port;

  const waitFor = (to: string, timeoutMs: number) =>
    new Promise<ReceivedMail>((resolve, reject) => {
      const want = to.toLowerCase();
      const check = () => {
        const found = messages.find((m) => !taken.has(m) && m.envelope.to.some((r) => r.toLowerCase() === want));
        if (!found) return false;
        taken.add(found);
        finish();
        resolve(found);
        return true;
      };
      const timer = setTimeout(() => {
        finish();
        reject(
          new Error(`no mail to ${to} within ${timeoutMs} ms; received: ${JSON.stringify(messages.map((m) => ({ to: m.envelope.to, subject: m.subject })))}`),
        );
      }, timeoutMs);
      const finish = () => {
        clearTimeout(timer);
        waiters.delete(wake);
      };
      const wake = () => void check();
      waiters.add(wake);
      check();
    });

  return {
    url: `smtp://${encodeURIComponent(user)}:${encodeURIComponent(password)}@127.0.0.1:${port}`,
    port,
    user,
    password,
    ca: tls?.cert,
    messages,
    waitFor,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
