// The SMTP transport (nodemailer) from FAULTLINE_SMTP_URL / FAULTLINE_MAIL_FROM. Every message is checked before it
// leaves: plain addresses only, a subject and header values without line breaks or control characters, parts within
// their size limit. Nothing a caller passes can add a header or a recipient. Without configuration the mailer is
// "unavailable": `available` is false and callers show their e-mail actions as unavailable.
import type { Transporter } from "nodemailer";
import type { MailConfig } from "../config/env";
import { MAIL_LIMITS } from "../config/limits";
import { isHeaderSafe, isMailAddress } from "./address";

export type MailMessage = {
  /** One plain address (local@domain) or a few; display names are not accepted. */
  to: string | string[];
  subject: string;
  text: string;
  html: string;
  /** Extra headers (e.g. List-Unsubscribe, X-Faultline-Notification); names of letters, digits and "-". */
  headers?: Record<string, string>;
  /**
   * The Message-ID, "<local@domain>", when the caller needs one that stays the same across sends (a notification
   * delivered twice is the same mail, which clients show once); else the transport makes one.
   */
  messageId?: string;
};

/** The SMTP server's answer to a message, to record with the delivery. */
export type SendResult = {
  messageId: string;
  /** The server's last reply line, e.g. "250 2.0.0 Ok: queued as 4Xb1…". */
  response: string;
  /** Its reply code (250), or null when the reply did not start with one. */
  code: number | null;
  accepted: string[];
  rejected: string[];
};

/** Refused before sending: the message itself is wrong (an address, subject, header or size). Never retried. */
export class MailInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "MailInputError";
  }
}

/** send() on a mailer without configuration. */
export class MailUnavailableError extends Error {
  constructor() {
    super("Outgoing mail is not configured (FAULTLINE_SMTP_URL, FAULTLINE_MAIL_FROM)");
    this.name = "MailUnavailableError";
  }
}

/** The SMTP server refused or could not be reached; the message never contains the SMTP password. */
export class MailSendError extends Error {
  constructor(
    message: string,
    /** nodemailer's code: EAUTH, ECONNECTION, ETIMEDOUT, EENVELOPE, EMESSAGE… */
    readonly code: string | undefined,
    /** The server's reply code (e.g. 535, 550), when it answered. */
    readonly responseCode: number | undefined,
  ) {
    super(message);
    this.name = "MailSendError";
  }
}

export type AvailableMailer = {
  available: true;
  /** What the instance settings show: the server and the sender, never the password. */
  describe: { host: string; port: number; secure: boolean; user: string | undefined; from: string };
  send(message: MailMessage): Promise<SendResult>;
  close(): void;
};
export type UnavailableMailer = { available: false; describe: null; send(message: MailMessage): Promise<never>; close(): void };
export type Mailer = AvailableMailer | UnavailableMailer;

export type MailerOptions = {
  /** Extra certificate authorities for the SMTP server's TLS certificate (PEM), as tests with a self-signed one need. */
  ca?: string;
};

const RESERVED_HEADERS = new Set([
  "from",
  "to",
  "cc",
  "bcc",
  "subject",
  "sender",
  "reply-to",
  "date",
  "message-id",
  "mime-version",
  "content-type",
  "content-transfer-encoding",
  "return-path",
]);
const HEADER_NAME = /^[A-Za-z0-9-]{1,64}$/;
/** RFC 5322's msg-id in its common dot-atom form, at most 250 characters. */
const MESSAGE_ID = /^<[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]{1,120}@[A-Za-z0-9.-]{1,120}>$/;

function checkMessage(m: MailMessage): { to: string[]; headers: Record<string, string> } {
  const to = typeof m.to === "string" ? [m.to] : Array.isArray(m.to) ? m.to : [];
  if (to.length === 0) throw new MailInputError("A message needs at least one recipient");
  if (to.length > MAIL_LIMITS.recipientsMax) throw new MailInputError(`At most ${MAIL_LIMITS.recipientsMax} recipients per message`);
  for (const a of to) if (!isMailAddress(a)) throw new MailInputError("A recipient is not a plain e-mail address");
  if (typeof m.subject !== "string" || m.subject.trim() === "") throw new MailInputError("A message needs a subject");
  if (!isHeaderSafe(m.subject)) throw new MailInputError("The subject contains a line break or control character");
  if (m.subject.length > MAIL_LIMITS.subjectMaxChars) throw new MailInputError(`The subject is longer than ${MAIL_LIMITS.subjectMaxChars} characters`);
  for (const part of [m.text, m.html]) {
    if (typeof part !== "string" || part === "") throw new MailInputError("A message needs a text and an HTML part");
    if (Buffer.byteLength(part) > MAIL_LIMITS.partMaxBytes) throw new MailInputError(`A part is larger than ${MAIL_LIMITS.partMaxBytes} bytes`);
  }
  const headers: Record<string, string> = {};
  const entries = Object.entries(m.headers ?? {});
  if (entries.length > MAIL_LIMITS.headersMax) throw new MailInputError(`At most ${MAIL_LIMITS.headersMax} extra headers`);
  for (const [name, value] of entries) {
    if (!HEADER_NAME.test(name) || RESERVED_HEADERS.has(name.toLowerCase())) throw new MailInputError("A header name is not allowed");
    if (typeof value !== "string" || !isHeaderSafe(value) || value.length > MAIL_LIMITS.headerValueMaxChars)
      throw new MailInputError(`The header ${name} has a line break, control character or is too long`);
    headers[name] = value;
  }
  if (m.messageId !== undefined && !MESSAGE_ID.test(m.messageId)) throw new MailInputError("The Message-ID is not of the form <local@domain>");
  return { to, headers };
}

/** NUL cannot travel in a mail's body (and is never meant); it is dropped rather than refused. */
const noNul = (s: string) => s.replace(/\u0000/g, "");

const asStrings = (list: Array<string | { address: string }> | undefined) => (list ?? []).map((a) => (typeof a === "string" ? a : a.address));

function sendError(err: unknown, secret: string | undefined): MailSendError {
  const e = err as { message?: unknown; code?: unknown; responseCode?: unknown };
  let message = typeof e?.message === "string" && e.message !== "" ? e.message : "Sending failed";
  if (secret) message = message.split(secret).join("***");
  return new MailSendError(
    message.slice(0, 500),
    typeof e?.code === "string" ? e.code : undefined,
    typeof e?.responseCode === "number" ? e.responseCode : undefined,
  );
}

const unavailable: UnavailableMailer = {
  available: false,
  describe: null,
  send: () => Promise.reject(new MailUnavailableError()),
  close: () => {},
};

/** A mailer for the configuration (null: unavailable). Connections are pooled; close() ends them. */
export function createMailer(config: MailConfig | null, options: MailerOptions = {}): Mailer {
  if (!config) return unavailable;
  const secret = config.password();
  // The transport is made with the first message, so that a server that sends none never loads it (bench:start).
  let transport: Promise<Transporter> | null = null;
  const connect = async (): Promise<Transporter> =>
    (await import("nodemailer")).default.createTransport({
      pool: true,
      maxConnections: MAIL_LIMITS.poolConnections,
      host: config.host,
      port: config.port,
      secure: config.secure,
      auth: config.user !== undefined ? { user: config.user, pass: secret ?? "" } : undefined,
      connectionTimeout: MAIL_LIMITS.connectionTimeoutMs,
      greetingTimeout: MAIL_LIMITS.greetingTimeoutMs,
      socketTimeout: MAIL_LIMITS.socketTimeoutMs,
      tls: options.ca ? { ca: options.ca } : undefined,
      // Message content never names files or URLs to fetch; refuse them should one ever slip in.
      disableFileAccess: true,
      disableUrlAccess: true,
      logger: false,
    });
  const from = config.from;
  return {
    available: true,
    describe: {
      host: config.host,
      port: config.port,
      secure: config.secure,
      user: config.user,
      from: from.name ? `${from.name} <${from.address}>` : from.address,
    },
    async send(message) {
      const { to, headers } = checkMessage(message);
      try {
        // A transport that could not be made is not kept: the next message tries again.
        transport ??= connect().catch((err: unknown) => {
          transport = null;
          throw err;
        });
        const ready = await transport;
        const info = await ready.sendMail({
          from: from.name ? { name: from.name, address: from.address } : from.address,
          to,
          subject: message.subject,
          text: noNul(message.text),
          html: noNul(message.html),
          headers,
          ...(message.messageId ? { messageId: message.messageId } : {}),
        });
        const response = String(info.response ?? "");
        const code = /^(\d{3})\b/.exec(response);
        return {
          messageId: String(info.messageId ?? ""),
          response,
          code: code ? Number(code[1]) : null,
          accepted: asStrings(info.accepted),
          rejected: asStrings(info.rejected),
        };
      } catch (err) {
        throw sendError(err, secret);
      }
    },
    close: () => void transport?.then((t) => t.close()).catch(() => undefined),
  };
}
