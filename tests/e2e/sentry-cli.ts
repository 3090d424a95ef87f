// The two real, unmodified sentry-cli versions the tests drive: 2.58.6 (@sentry/cli) and 3.x (the npm alias
// sentry-cli-3), each with its binary from its own npm optional dependency. Both packages name their command
// `sentry-cli`, so node_modules/.bin holds only one of them: the tests call each package's own launcher.
// Also how the tests run them as CI would, and what `sourcemaps inject` leaves in a bundle.
import { readFileSync } from "node:fs";
import path from "node:path";
import { expect } from "@playwright/test";
import { run } from "./ingest-helpers";

export const SENTRY_CLI_2 = path.join(process.cwd(), "node_modules/@sentry/cli/bin/sentry-cli");
export const SENTRY_CLI_3 = path.join(process.cwd(), "node_modules/sentry-cli-3/bin/sentry-cli");

/** Both versions, named, for tests that run once with each. */
export const SENTRY_CLIS = [
  { name: "2.58.6", bin: SENTRY_CLI_2 },
  { name: "3.8.0", bin: SENTRY_CLI_3 },
];

/** Where sentry-cli talks to: a Faultline (with its base path), a token, and the organization and project. */
export type CliTarget = { url: string; token: string; org: string; project: string };

/** sentry-cli's environment as CI gives it: only the environment says where to go (`home` is an empty HOME: no .sentryclirc). */
export const sentryCliEnv = (target: CliTarget, home: string) => ({
  PATH: process.env.PATH,
  HOME: home,
  SENTRY_URL: target.url,
  SENTRY_AUTH_TOKEN: target.token,
  SENTRY_ORG: target.org,
  SENTRY_PROJECT: target.project,
  SENTRY_LOAD_DOTENV: "0",
  SENTRY_DISABLE_UPDATE_CHECK: "true",
});

/** Runs sentry-cli with that environment in `cwd`; it must succeed. Returns its stdout and stderr. */
export async function runSentryCli(bin: string, args: string[], target: CliTarget, home: string, cwd = home): Promise<string> {
  const r = await run(bin, args, { env: sentryCliEnv(target, home), cwd, timeoutMs: 60_000 });
  expect(r.code, `sentry-cli ${args.join(" ")} exited ${r.code}:\n${r.stdout}\n${r.stderr}`).toBe(0);
  return `${r.stdout}\n${r.stderr}`;
}

/** The debug id `sourcemaps inject` wrote into `dist/file` (a minified bundle), checked against its map `file.map`. */
export function injectedDebugId(dist: string, file: string): string {
  const js = readFileSync(path.join(dist, file), "utf8");
  const id = /\/\/# debugId=([0-9a-f-]{36})/.exec(js)?.[1];
  expect(id, js.slice(-200)).toBeTruthy();
  const map = JSON.parse(readFileSync(path.join(dist, `${file}.map`), "utf8"));
  expect(map.debugId ?? map.debug_id).toBe(id);
  return id!;
}
