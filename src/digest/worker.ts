// The digest thread's entry (built to dist/digest-worker.mjs): the digest as thread.ts runs it, with the real
// symbolicator. Started by supervisor.ts.
import { runDigestThread } from "./thread";

await runDigestThread();
