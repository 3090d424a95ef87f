// The two real, unmodified sentry-cli versions the tests drive: 2.58.6 (@sentry/cli) and 3.x (the npm alias
// sentry-cli-3), each with its binary from its own npm optional dependency. Both packages name their command
// `sentry-cli`, so node_modules/.bin holds only one of them: the tests call each package's own launcher.
import path from "node:path";

export const SENTRY_CLI_2 = path.join(process.cwd(), "node_modules/@sentry/cli/bin/sentry-cli");
export const SENTRY_CLI_3 = path.join(process.cwd(), "node_modules/sentry-cli-3/bin/sentry-cli");
