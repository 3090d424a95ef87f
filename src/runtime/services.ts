// The process-wide services: configuration, database, store and auth, created once on first use.
// Kept on globalThis because the custom server and Next's server bundle each load their own copy of this module.
import { betterAuthAccounts } from "../auth/accounts";
import { type Auth, createAuth } from "../auth/create-auth";
import { isSessionIdRevoked } from "../auth/revoked-sessions";
import type { SsoProviderConfig } from "../auth/sso";
import { ssoFromStored } from "../auth/sso-settings";
import { SSO_LIMITS } from "../config/limits";
import { type Config, loadConfig } from "../config/env";
import type { Accounts } from "../core/accounts";
import { passwordResetSender } from "../mail/account-mail";
import { getMailer } from "../mail/index";
import type { Mailer } from "../mail/mailer";
import { type Db, dbOptionsFromConfig, openDb } from "../storage/db";
import { createStore } from "../storage/kysely";
import { watchPool } from "../observability/pools";
import { endStreamsOfEndedSessions } from "../web/live-streams";
import type { Store } from "../storage/ports";

/**
 * sso: the OpenID Connect provider of single sign-on (FAULTLINE_OIDC_*, else the instance settings'), null when none
 * is configured. `auth` is rebuilt when the instance settings' provider changes (currentServices()).
 */
export type Services = {
  config: Config;
  basePath: string;
  db: Db;
  store: Store;
  auth: Auth;
  accounts: Accounts;
  mailer: Mailer;
  sso: SsoProviderConfig | null;
  /** The instance settings' provider the auth was built with ("" none), and when it was last looked at (ms). */
  ssoState: { version: string; checkedAt: number; build: (sso: SsoProviderConfig | null) => Auth };
};

const KEY = Symbol.for("faultline.services");
type Holder = { [KEY]?: Services };

/** Base path the application was built with (FAULTLINE_BASE_PATH at build time; the server exports it at start). */
export function currentBasePath(): string {
  return (process.env.FAULTLINE_BASE_PATH ?? "").replace(/\/+$/, "");
}

export function createServices(config: Config, basePath = currentBasePath()): Services {
  const db = openDb(dbOptionsFromConfig(config));
  watchPool("app", db.pool);
  const store = createStore(db);
  const mailer = getMailer(config.mail);
  const sendPasswordReset = passwordResetSender(mailer, { publicUrl: config.publicUrl, basePath });
  // Sessions ended by better-auth (a password change or reset, a two-factor change, signing out): their live streams
  // close at once. A session signed out whose row the full disk kept is ended too (auth/revoked-sessions.ts).
  const onSessionsEnded = async (userId: string) => {
    endStreamsOfEndedSessions(
      userId,
      (await store.listUserSessions(userId, new Date().toISOString())).filter((s) => !isSessionIdRevoked(s.id)).map((s) => s.id),
    );
  };
  const sso = config.oidc;
  const build = (provider: SsoProviderConfig | null) =>
    createAuth({ db, secret: config.secretKey, publicUrl: config.publicUrl, basePath, sendPasswordReset, onSessionsEnded, sso: provider });
  const auth = build(sso);
  return { config, basePath, db, store, auth, accounts: betterAuthAccounts(auth, store), mailer, sso, ssoState: { version: "", checkedAt: 0, build } };
}

/**
 * The services, with the instance settings' single sign-on provider current: looked up at most every
 * SSO_LIMITS.settingsRecheckMs (so that every node follows a change made on another), better-auth rebuilt when it
 * changed. The environment's provider, when set, is the one used and never looked up.
 */
export async function currentServices(force = false): Promise<Services> {
  const s = getServices();
  if (s.config.oidc) return s;
  const now = Date.now();
  if (!force && now - s.ssoState.checkedAt < SSO_LIMITS.settingsRecheckMs) return s;
  s.ssoState.checkedAt = now;
  const stored = await s.store.getSsoSettings().catch(() => undefined);
  if (stored === undefined) return s;
  const version = stored ? stored.updatedAt : "";
  if (version === s.ssoState.version) return s;
  const sso = stored ? await ssoFromStored(stored, s.config.secretKey) : null;
  if (stored && !sso)
    console.error("faultline: the single sign-on client secret in the instance settings cannot be decrypted with this secret key; set it again");
  s.auth = s.ssoState.build(sso);
  s.accounts = betterAuthAccounts(s.auth, s.store);
  s.sso = sso;
  s.ssoState.version = version;
  return s;
}

export function getServices(): Services {
  const holder = globalThis as Holder;
  holder[KEY] ??= createServices(loadConfig());
  return holder[KEY];
}

export async function closeServices(): Promise<void> {
  const holder = globalThis as Holder;
  const s = holder[KEY];
  delete holder[KEY];
  if (s) await s.db.close();
}
