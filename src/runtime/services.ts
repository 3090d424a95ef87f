// The process-wide services: configuration, database, store and auth, created once on first use.
// Kept on globalThis because the custom server and Next's server bundle each load their own copy of this module.
import { betterAuthAccounts } from "../auth/accounts";
import { type Auth, createAuth } from "../auth/create-auth";
import type { SsoProviderConfig } from "../auth/sso";
import { type Config, loadConfig } from "../config/env";
import type { Accounts } from "../core/accounts";
import { passwordResetSender } from "../mail/account-mail";
import { getMailer } from "../mail/index";
import type { Mailer } from "../mail/mailer";
import { type Db, dbOptionsFromConfig, openDb } from "../storage/db";
import { createStore } from "../storage/kysely";
import { watchPool } from "../observability/pools";
import type { Store } from "../storage/ports";

/** sso: the OpenID Connect provider of single sign-on (FAULTLINE_OIDC_*), null when none is configured. */
export type Services = { config: Config; basePath: string; db: Db; store: Store; auth: Auth; accounts: Accounts; mailer: Mailer; sso: SsoProviderConfig | null };

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
  const sso = config.oidc;
  const auth = createAuth({ db, secret: config.secretKey, publicUrl: config.publicUrl, basePath, sendPasswordReset, sso });
  return { config, basePath, db, store, auth, accounts: betterAuthAccounts(auth, store), mailer, sso };
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
