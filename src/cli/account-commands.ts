// The `faultline` commands that work on the application's services: migrate, createuser and createtoken. Loaded
// by main.ts only for them (the services bring the sign-in library and every driver).
import { parseArgs } from "node:util";
import { registerUser } from "../core/accounts";
import { createFullAccessToken, createToken } from "../core/tokens";
import { getServices } from "../runtime/services";
import { migrateToLatest } from "../storage/migrate";
import { UsageError } from "./usage-error";

export async function migrate(): Promise<void> {
  const applied = await migrateToLatest(getServices().db);
  console.error(applied.length ? `applied ${applied.join(", ")}` : "database is up to date");
}

export async function createuser(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      email: { type: "string" },
      password: { type: "string" },
      name: { type: "string" },
      superuser: { type: "boolean", default: false },
      "no-input": { type: "boolean", default: false },
    },
  });
  if (!values.email || !values.password) throw new UsageError("createuser needs --email and --password (it never prompts)");
  const s = getServices();
  await migrateToLatest(s.db);
  const user = await registerUser(s.accounts, s.store, { email: values.email, password: values.password, name: values.name, isSuperuser: values.superuser });
  console.error(`created ${user.isSuperuser ? "superuser" : "user"} ${user.email}`);
}

export async function createtoken(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: { email: { type: "string" }, name: { type: "string" }, scope: { type: "string", multiple: true }, expires: { type: "string" } },
  });
  if (!values.email) throw new UsageError("createtoken needs --email");
  const s = getServices();
  await migrateToLatest(s.db);
  const user = await s.store.getUserByEmail(values.email);
  if (!user) throw new UsageError(`no user with e-mail ${values.email}`);
  const ctx = { store: s.store, actor: { user } };
  const input = { name: values.name ?? "CLI token", scopes: values.scope, expiresAt: values.expires };
  const { plaintext } = values.scope ? await createToken(ctx, input) : await createFullAccessToken(ctx, input);
  process.stdout.write(`${plaintext}\n`);
}
