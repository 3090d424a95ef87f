// Faultline's runtime configuration: read from the environment once, validated, with clear messages.
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { type MailFrom, parseMailFrom } from "../mail/address";
import { METRICS_LIMITS, RETENTION_LIMITS, SELF_MONITORING_LIMITS, SSO_LIMITS } from "./limits";

/**
 * Outgoing mail (FAULTLINE_SMTP_URL and FAULTLINE_MAIL_FROM). The password sits behind a function, so that logging or
 * serializing the configuration never shows it.
 */
export type MailConfig = {
  host: string;
  port: number;
  /** smtps://: TLS from the first byte. smtp://: plain, upgraded with STARTTLS whenever the server offers it. */
  secure: boolean;
  user: string | undefined;
  password: () => string | undefined;
  from: MailFrom;
};

export type Config = {
  /** TCP port the HTTP server listens on. */
  port: number;
  /** Host to bind. */
  host: string;
  /** Public URL of this install, without trailing slash and without the base path (used in DSNs and links). */
  publicUrl: string;
  /** Folder for the SQLite database and the generated secret key. */
  dataDir: string;
  /** postgres://… switches storage to PostgreSQL; undefined means SQLite under dataDir. */
  databaseUrl: string | undefined;
  /** Secret used to sign sessions; generated and stored in dataDir when absent. */
  secretKey: string;
  /** Trust X-Forwarded-For from a reverse proxy for the client address. */
  trustProxy: boolean;
  /**
   * How the spool syncs each commit. "normal" (default): an acknowledged event survives a killed process (kill -9) but
   * the last commits may be lost in a power cut; "full" syncs every commit, surviving a power cut, at the cost of a
   * disk sync on the event loop for every group commit.
   */
  spoolSync: "full" | "normal";
  /**
   * Where the digest runs. "inline" (default): in a worker thread of `faultline start`. "external": in a separate
   * `faultline worker` process on the same spool (same data dir, on this host or shared storage) and database; the
   * server then only follows the position it saves.
   */
  digest: "inline" | "external";
  /**
   * 2: the digest prepares each batch in a second thread while it writes the one before (digest/prepare-thread.ts),
   * faster by about a third on two cores for about 125 MB more memory at its peak (README, "Configuration").
   */
  digestThreads: 1 | 2;
  /** Days events (and the other kept items, hourly counters and release health) are kept; older ones are pruned by the digest. */
  retentionDays: number;
  /**
   * What the chunk-upload options offer sentry-cli (its `accept` list): by default release bundles and artifact
   * bundles. FAULTLINE_CHUNK_UPLOAD_ACCEPT narrows it, as servers without artifact bundles answer ("release_files":
   * sentry-cli 2.x assembles per release, and artifactbundle/assemble/ answers 404), and "none" turns chunk upload off
   * (2.x then uploads release files one by one).
   */
  chunkUploadAccept: ChunkUploadKind[];
  /**
   * Faultline reports its own browser errors, server errors and page loads into its internal project (on by default;
   * FAULTLINE_SELF_MONITORING=0 turns it off). Sample rates are fractions from 0 to 1.
   */
  selfMonitoring: { enabled: boolean; errorSampleRate: number; tracesSampleRate: number };
  /** Outgoing mail; null when FAULTLINE_SMTP_URL is not set: e-mail is then shown as unavailable. */
  mail: MailConfig | null;
  /**
   * `GET /metrics` (Prometheus): on the main port with FAULTLINE_METRICS_TOKEN as a bearer token, and/or without a
   * token on a listener of its own (FAULTLINE_METRICS_ADDRESS, e.g. 127.0.0.1:9464). Neither set: /metrics is 404.
   * The token sits behind a function, so that logging the configuration never shows it.
   */
  metrics: { token: (() => string) | null; address: { host: string; port: number } | null };
  /**
   * Single sign-on with an OpenID Connect provider from the environment (FAULTLINE_OIDC_ISSUER, _CLIENT_ID,
   * _CLIENT_SECRET, optional _NAME); null when FAULTLINE_OIDC_ISSUER is not set (a superuser may then configure it in
   * the instance settings). The client secret sits behind a function, so that logging the configuration never shows it.
   */
  oidc: OidcEnvConfig | null;
};

export type OidcEnvConfig = { issuer: string; clientId: string; clientSecret: () => string; name: string };

const rateSchema = (fallback: number) =>
  z.coerce.number({ error: "must be a number from 0 to 1" }).min(0, "must be from 0 to 1").max(1, "must be from 0 to 1").default(fallback);

export const CHUNK_UPLOAD_KINDS = ["release_files", "artifact_bundles", "artifact_bundles_v2"] as const;
export type ChunkUploadKind = (typeof CHUNK_UPLOAD_KINDS)[number];

const chunkUploadAcceptSchema = z
  .string()
  .transform((v) =>
    v
      .split(",")
      .map((s) => s.trim())
      .filter((s) => s !== ""),
  )
  .refine(
    (list) => list.every((k) => k === "none" || (CHUNK_UPLOAD_KINDS as readonly string[]).includes(k)),
    `must be "none" or a comma-separated list of ${CHUNK_UPLOAD_KINDS.join(", ")}`,
  )
  .transform((list) => list.filter((k): k is ChunkUploadKind => k !== "none"));

const portSchema = z.coerce
  .number({ error: "must be a number" })
  .int("must be a whole number")
  .min(1, "must be between 1 and 65535")
  .max(65535, "must be between 1 and 65535");

/** host:port, [v6]:port; the port a number from 1 to 65535. Null when not one. */
function parseAddress(raw: string): { host: string; port: number } | null {
  const m = /^(?:\[([0-9a-fA-F:.]+)\]|([^:\s\[\]]+)):(\d{1,5})$/.exec(raw);
  if (!m) return null;
  const port = Number(m[3]);
  if (port < 1 || port > 65535) return null;
  return { host: (m[1] ?? m[2])!, port };
}

type SmtpServer = Omit<MailConfig, "from">;

/** smtp://user:pass@host:587 or smtps://user:pass@host:465; user and password percent-encoded. Null when not one. */
function parseSmtpUrl(raw: string): SmtpServer | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  if (
    (url.protocol !== "smtp:" && url.protocol !== "smtps:") ||
    url.hostname === "" ||
    url.search !== "" ||
    url.hash !== "" ||
    !["", "/"].includes(url.pathname)
  )
    return null;
  const secure = url.protocol === "smtps:";
  let user: string | undefined;
  let password: string | undefined;
  try {
    user = url.username === "" ? undefined : decodeURIComponent(url.username);
    password = url.password === "" ? undefined : decodeURIComponent(url.password);
  } catch {
    return null;
  }
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  return { host, port: url.port === "" ? (secure ? 465 : 587) : Number(url.port), secure, user, password: () => password };
}

// The messages never repeat the value: the URL holds the SMTP password.
const mailEnvShape = {
  FAULTLINE_SMTP_URL: z
    .string()
    .transform(
      (v, ctx) =>
        parseSmtpUrl(v) ??
        (ctx.addIssue({ code: "custom", message: "must be smtp://user:password@host:port or smtps://… (user and password percent-encoded; no path or query)" }),
        z.NEVER),
    )
    .optional(),
  FAULTLINE_MAIL_FROM: z
    .string()
    .transform(
      (v, ctx) =>
        parseMailFrom(v) ??
        (ctx.addIssue({ code: "custom", message: "must be an address such as alerts@example.com or Faultline <alerts@example.com>" }), z.NEVER),
    )
    .optional(),
};
const mailEnvSchema = z.object(mailEnvShape);

function mailConfig(e: z.infer<typeof mailEnvSchema>): MailConfig | null {
  if (!e.FAULTLINE_SMTP_URL) return null;
  if (!e.FAULTLINE_MAIL_FROM) throw new ConfigError(["FAULTLINE_MAIL_FROM must be set along with FAULTLINE_SMTP_URL (the sender of every mail)"]);
  return { ...e.FAULTLINE_SMTP_URL, from: e.FAULTLINE_MAIL_FROM };
}

/**
 * Only the mail settings, for processes that send mail without the rest of the configuration (the delivery worker).
 * Throws ConfigError as loadConfig does.
 */
export function loadMailConfig(env: Record<string, string | undefined> = process.env): MailConfig | null {
  const parsed = mailEnvSchema.safeParse(stripEmpty(env));
  if (!parsed.success) throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join(".")} ${i.message}`));
  return mailConfig(parsed.data);
}

const envSchema = z.object({
  PORT: portSchema.default(9000),
  HOST: z.string().min(1).default("0.0.0.0"),
  FAULTLINE_URL: z
    .url({ error: "must be an absolute http(s) URL such as https://faultline.example.com" })
    .refine((u) => /^https?:\/\//.test(u), "must start with http:// or https://")
    .optional(),
  FAULTLINE_DATA_DIR: z.string().min(1).default("./data"),
  DATABASE_URL: z
    .string()
    .refine((u) => /^postgres(ql)?:\/\//.test(u), "must be a postgres:// URL (leave unset for SQLite)")
    .optional(),
  FAULTLINE_SECRET_KEY: z.string().min(32, "must be at least 32 characters").optional(),
  FAULTLINE_TRUST_PROXY: z.enum(["0", "1", "true", "false"], { error: "must be 0 or 1" }).optional(),
  FAULTLINE_SPOOL_SYNC: z.enum(["full", "normal"], { error: "must be full or normal" }).default("normal"),
  FAULTLINE_DIGEST: z.enum(["inline", "external"], { error: "must be inline or external" }).default("inline"),
  FAULTLINE_DIGEST_THREADS: z.enum(["1", "2"], { error: "must be 1 or 2" }).default("1"),
  FAULTLINE_RETENTION_DAYS: z.coerce
    .number({ error: "must be a number of days" })
    .int("must be a whole number of days")
    .min(1, `must be between 1 and ${RETENTION_LIMITS.maxDays}`)
    .max(RETENTION_LIMITS.maxDays, `must be between 1 and ${RETENTION_LIMITS.maxDays}`)
    .default(RETENTION_LIMITS.defaultDays),
  FAULTLINE_CHUNK_UPLOAD_ACCEPT: chunkUploadAcceptSchema.default([...CHUNK_UPLOAD_KINDS]),
  FAULTLINE_SELF_MONITORING: z.enum(["0", "1", "true", "false"], { error: "must be 0 or 1" }).default("1"),
  FAULTLINE_SELF_MONITORING_SAMPLE_RATE: rateSchema(SELF_MONITORING_LIMITS.defaultErrorSampleRate),
  FAULTLINE_SELF_MONITORING_TRACES_SAMPLE_RATE: rateSchema(SELF_MONITORING_LIMITS.defaultTracesSampleRate),
  // Never repeated in a message: it is a secret.
  FAULTLINE_METRICS_TOKEN: z
    .string()
    .refine(
      (v) => v.length >= METRICS_LIMITS.minTokenLength && /^[\x21-\x7e]+$/.test(v),
      `must be at least ${METRICS_LIMITS.minTokenLength} printable characters without spaces (e.g. \`openssl rand -hex 32\`)`,
    )
    .optional(),
  FAULTLINE_METRICS_ADDRESS: z
    .string()
    .transform((v, ctx) => parseAddress(v) ?? (ctx.addIssue({ code: "custom", message: "must be host:port, such as 127.0.0.1:9464 or [::1]:9464" }), z.NEVER))
    .optional(),
  // The issuer is the operator's own identity provider: a loopback or private address is allowed (docs/sso.md).
  FAULTLINE_OIDC_ISSUER: z
    .url({ error: "must be the provider's issuer URL, such as https://login.example.com/realms/acme" })
    .refine((u) => /^https?:\/\//.test(u) && u.length <= SSO_LIMITS.maxIssuerLength, "must be an http(s) URL of at most 512 characters")
    .optional(),
  FAULTLINE_OIDC_CLIENT_ID: z
    .string()
    .max(SSO_LIMITS.maxIssuerLength)
    .regex(/^[\x21-\x7e]+$/, "must be printable characters without spaces")
    .optional(),
  // Never repeated in a message: it is a secret.
  FAULTLINE_OIDC_CLIENT_SECRET: z
    .string()
    .max(SSO_LIMITS.maxClientSecretLength, "is too long")
    .regex(/^[\x20-\x7e]+$/, "must be printable characters")
    .optional(),
  FAULTLINE_OIDC_NAME: z
    .string()
    .max(SSO_LIMITS.maxNameLength, `must be at most ${SSO_LIMITS.maxNameLength} characters`)
    .regex(/^[^\x00-\x1f\x7f]+$/, "must be one line")
    .optional(),
  ...mailEnvShape,
});

function oidcConfig(e: z.infer<typeof envSchema>): OidcEnvConfig | null {
  if (!e.FAULTLINE_OIDC_ISSUER) {
    if (e.FAULTLINE_OIDC_CLIENT_ID || e.FAULTLINE_OIDC_CLIENT_SECRET)
      throw new ConfigError(["FAULTLINE_OIDC_ISSUER must be set along with FAULTLINE_OIDC_CLIENT_ID and FAULTLINE_OIDC_CLIENT_SECRET"]);
    return null;
  }
  if (!e.FAULTLINE_OIDC_CLIENT_ID || !e.FAULTLINE_OIDC_CLIENT_SECRET)
    throw new ConfigError(["FAULTLINE_OIDC_CLIENT_ID and FAULTLINE_OIDC_CLIENT_SECRET must be set along with FAULTLINE_OIDC_ISSUER"]);
  return {
    issuer: e.FAULTLINE_OIDC_ISSUER.replace(/\/+$/, ""),
    clientId: e.FAULTLINE_OIDC_CLIENT_ID,
    clientSecret: secretOf(e.FAULTLINE_OIDC_CLIENT_SECRET),
    name: e.FAULTLINE_OIDC_NAME ?? "single sign-on",
  };
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "ConfigError";
  }
}

/** Reads and validates the configuration. Throws ConfigError listing every problem at once. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = envSchema.safeParse(stripEmpty(env));
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join(".")} ${i.message}`));
  }
  const e = parsed.data;
  const dataDir = path.resolve(e.FAULTLINE_DATA_DIR);
  const publicUrl = (e.FAULTLINE_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, "");
  return {
    port: e.PORT,
    host: e.HOST,
    publicUrl,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    secretKey: e.FAULTLINE_SECRET_KEY ?? readOrCreateSecret(dataDir),
    trustProxy: e.FAULTLINE_TRUST_PROXY === "1" || e.FAULTLINE_TRUST_PROXY === "true",
    spoolSync: e.FAULTLINE_SPOOL_SYNC,
    digest: e.FAULTLINE_DIGEST,
    digestThreads: e.FAULTLINE_DIGEST_THREADS === "2" ? 2 : 1,
    retentionDays: e.FAULTLINE_RETENTION_DAYS,
    chunkUploadAccept: e.FAULTLINE_CHUNK_UPLOAD_ACCEPT,
    selfMonitoring: {
      enabled: e.FAULTLINE_SELF_MONITORING === "1" || e.FAULTLINE_SELF_MONITORING === "true",
      errorSampleRate: e.FAULTLINE_SELF_MONITORING_SAMPLE_RATE,
      tracesSampleRate: e.FAULTLINE_SELF_MONITORING_TRACES_SAMPLE_RATE,
    },
    mail: mailConfig(e),
    metrics: { token: e.FAULTLINE_METRICS_TOKEN ? secretOf(e.FAULTLINE_METRICS_TOKEN) : null, address: e.FAULTLINE_METRICS_ADDRESS ?? null },
    oidc: oidcConfig(e),
  };
}

const secretOf = (value: string) => () => value;

function stripEmpty(env: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined && v !== "") out[k] = v;
  return out;
}

/** The secret lives in the data dir so that restarts keep sessions valid without any setup. */
function readOrCreateSecret(dataDir: string): string {
  const file = path.join(dataDir, "secret.key");
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString("hex");
  writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: "wx" });
  return secret;
}
