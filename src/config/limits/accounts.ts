// Accounts, names and the web API: sign-in, passwords, sessions, request sizes.
// Each limit with its unit and the reason for its value; config/limits.ts gathers the files.

export const AUTH_LIMITS = {
  /** characters; NIST SP 800-63B asks for at least 8. */
  minPasswordLength: 8,
  /** characters; long enough for passphrases, short enough that hashing stays cheap. */
  maxPasswordLength: 256,
  /** seconds (30 days); a monitor is opened daily, so people should not sign in every morning. */
  sessionLifetimeSeconds: 30 * 24 * 3600,
  /** seconds (1 day); how often an active session's expiry is pushed forward. */
  sessionRefreshSeconds: 24 * 3600,
  /** seconds; window for sign-in and password-change attempts per client address. */
  signInWindowSeconds: 60,
  /** attempts per window; enough for typos, far too few for guessing. */
  signInAttemptsPerWindow: 5,
  /** seconds; window for all other auth endpoints. */
  requestWindowSeconds: 60,
  /** requests per window per client address for the other auth endpoints. */
  requestsPerWindow: 100,
  /** seconds; window for password-reset requests per client address (better-auth's default for this endpoint). */
  passwordResetWindowSeconds: 60,
  /** requests per window; a person who lost a mail asks again once or twice, never more (better-auth's default). */
  passwordResetRequestsPerWindow: 3,
  /** seconds (1 hour); how long a password-reset link works (it works once). */
  passwordResetTokenSeconds: 3600,
  /** days (about 10 years); the furthest expiry a personal token can be given, beyond it "no expiry" says the same. */
  tokenMaxLifetimeDays: 3660,
} as const;

/** Two-factor sign-in (auth/two-factor.ts): TOTP as RFC 6238 and every authenticator app use it, recovery codes. */
export const TWO_FACTOR_LIMITS = {
  /** seconds; RFC 6238's time step, the one authenticator apps assume. */
  totpPeriodSeconds: 30,
  /** digits of a code; what authenticator apps show. */
  totpDigits: 6,
  /** seconds; a code stays refused after its use for this long: one step either side is accepted (clock drift), so 3 steps. */
  usedCodeSeconds: 90,
  /** seconds; window for code attempts (TOTP or recovery code) per client address. */
  codeWindowSeconds: 60,
  /** attempts per window; a mistyped code or two, far too few to guess one of a million. */
  codeAttemptsPerWindow: 5,
  /** seconds (10 minutes); how long the second step of a sign-in waits for its code after the password. */
  challengeSeconds: 600,
  /** failed codes in a row after which the account's second step is locked (better-auth's lock-out). */
  lockOutAfterFailures: 10,
  /** seconds (15 minutes); how long that lock-out lasts. */
  lockOutSeconds: 900,
  /** recovery codes given at enrolment; each works once (Sentry gives 10). */
  recoveryCodes: 10,
  /** characters of a recovery code (about 59 bits: letters and digits), shown as two groups of 5. */
  recoveryCodeLength: 10,
} as const;

export const NAME_LIMITS = {
  /** characters; slugs appear in URLs and DSN-adjacent links, Sentry caps them at 50. */
  slugMaxLength: 50,
  /** characters; display names of organizations, teams, projects and keys. */
  nameMaxLength: 64,
  /** characters; e-mail addresses (RFC 5321 path limit). */
  emailMaxLength: 254,
} as const;

export const API_LIMITS = {
  /** items; default page size of list endpoints, as Sentry's. */
  defaultPageSize: 100,
  /** items; largest page a client may ask for. */
  maxPageSize: 100,
  /**
   * bytes (6 KiB), percent-encoded; the query parameters a list carries to its next page in its `Link` header, which
   * holds them twice (the previous and next links). Node's fetch (undici) refuses an answer whose headers pass 16 KiB,
   * so a list asked with longer parameters is answered 414 rather than with a header its client cannot read. The
   * longest value Faultline reads, an issue search of STREAM_LIMITS.maxQueryLength (2,000) characters, fits.
   */
  maxLinkQueryBytes: 6 * 1024,
  /** bytes; JSON bodies of the web API are small objects, anything larger is a mistake or abuse. */
  maxJsonBodyBytes: 64 * 1024,
  /**
   * levels; arrays and objects nested in a web API body. Sentry's bodies nest a few levels (an alert rule's conditions,
   * a release's refs); 64 KiB of brackets would nest 32,768, and reading such a value (JSON.stringify) overflows the
   * stack. The intake's limit (INGEST_LIMITS.maxJsonDepth, serde_json's) is generous for any API body too.
   */
  maxJsonDepth: 128,
  /**
   * milliseconds (30 s, as uploads' UPLOAD_LIMITS.bodyIdleTimeoutMs); a web API body that stops arriving is answered
   * 408. A body shorter than its Content-Length otherwise held its request for Node's 5-minute request timeout.
   */
  bodyIdleMs: 30_000,
  /**
   * milliseconds; the whole of such a body (at most maxJsonBodyBytes, 64 KiB: well under a second on any link). A
   * client trickling a byte every few seconds never idles, and held its request up to Node's 5-minute timeout.
   */
  bodyDeadlineMs: 60_000,
} as const;

export const ACTION_LIMITS = {
  /** bytes (1 MiB); the body of one server action. Next.js's own default (serverActions.bodySizeLimit "1 MB"). */
  maxBodyBytes: 1024 * 1024,
  /**
   * levels; arrays and objects nested in an action's arguments (the JSON React decodes, recursively). Faultline's
   * arguments are a locale, slugs, ids and a form state a few levels deep; a megabyte of brackets is not one.
   */
  maxArgumentDepth: 128,
  /**
   * milliseconds (30 s, as the web API's API_LIMITS.bodyIdleMs); an action's body that stops arriving is answered 408.
   * The listener reads it before Next.js does (server/action-body.ts), and it held its request for Node's 5 minutes.
   */
  bodyIdleMs: 30_000,
  /**
   * milliseconds; the whole body (at most maxBodyBytes, 1 MiB: seconds on the slowest link a browser still uses). A
   * client trickling a byte every few seconds never idles.
   */
  bodyDeadlineMs: 60_000,
} as const;

export const AUDIT_LIMITS = {
  /** entries; one page of the audit trail on the settings screen and in the API (Sentry's page size). */
  pageSize: 100,
  /** characters; a note is one line about one change: names and slugs in it are already bounded. */
  noteMaxLength: 500,
  /** characters; a failed sign-in's address as typed (RFC 5321's path limit; longer input is cut). */
  emailMaxLength: 254,
} as const;

/** Single sign-on with an OpenID Connect provider (auth/sso.ts, core/sso.ts). */
export const SSO_LIMITS = {
  /** characters of the callback's `state`; better-auth's states are 32 characters, so 256 leaves room and no more. */
  maxStateLength: 256,
  /** characters of the callback's `code`; providers' codes are opaque, at most a few hundred characters in practice. */
  maxCodeLength: 2048,
  /** characters of the callback's `error`, `iss` and other short fields (an error code, the issuer URL). */
  maxShortFieldLength: 512,
  /** characters of the callback's `error_description`; a sentence from the provider, shown to nobody verbatim. */
  maxErrorDescriptionLength: 1024,
  /**
   * bytes (16 KiB); the form a provider posts to the callback (response_mode=form_post): the same code, state and
   * short fields as the query above, form-encoded. A larger body is no callback.
   */
  maxCallbackFormBytes: 16 * 1024,
  /** characters of the button's provider name (FAULTLINE_OIDC_NAME or the instance setting). */
  maxNameLength: 60,
  /** characters of the issuer URL and client id. */
  maxIssuerLength: 512,
  /** characters of the client secret. */
  maxClientSecretLength: 1024,
  /** domains an organization may auto-join by; a company's few e-mail domains, never a list of the world's. */
  maxAutoJoinDomains: 20,
  /** characters of one domain (DNS's limit). */
  maxDomainLength: 253,
  /**
   * milliseconds between looks at the instance settings' provider (one row read): how soon every node follows a
   * superuser's change, without a read on every sign-in page.
   */
  settingsRecheckMs: 5000,
} as const;

/** Sign-in sessions on the account page (core/sessions.ts). */
export const SESSION_LIMITS = {
  /**
   * seconds (5 minutes); a session's "last seen" is written at most this often, so that browsing costs no database
   * write per request (pages, actions and the live streams' ticks all count as seen); a person reading the list wants
   * "a few minutes ago", not the second.
   */
  lastSeenWriteSeconds: 300,
  /** sessions a process remembers as recently seen (to skip even the conditional write); past it the memory starts afresh. */
  seenMemoryEntries: 10_000,
  /** sessions listed on the account page, the newest first; a session lives 30 days, so this is far more than any person keeps. */
  maxListed: 100,
  /** characters; a session id as better-auth makes them is 32 letters and digits; anything longer is not one. */
  idMaxLength: 64,
  /** characters of a user agent shown and parsed; browsers send about 150, the rest of a longer one is noise or abuse. */
  userAgentMaxLength: 512,
} as const;
