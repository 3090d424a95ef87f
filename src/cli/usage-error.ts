/** A command line the `faultline` command cannot run: main.ts prints the message and the usage, and exits 2. */
export class UsageError extends Error {}
