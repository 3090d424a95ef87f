// Faultline's own server errors, reported into its internal project (started by src/instrumentation.ts).
//
// Next 14 calls no onRequestError. When a server component fails, Next's app-render error handler
// (next/dist/server/app-render/create-error-handler.js) computes the digest the fallback page shows, sets it on the
// error as `digest`, and then logs the error with console.error. That log call is the one place where the error and
// its digest meet, so it is where Faultline captures: an Error with a string `digest`, tagged `digest`, so searching
// `digest:<n>` in the issue stream finds what a user quotes from the page. Errors Next expects (not-found,
// redirects, dynamic usage) return from the handler before it logs.
//
// The capture is in place from the start; the SDK and what it needs (server-sdk.ts) are loaded
// SELF_MONITORING_LIMITS.serverSdkDelayMs after it, or at the first error, whichever is first. Loading them with
// the server held up its first page by about half a second (bench:start). An error before they are ready is
// reported once they are.
import { SELF_MONITORING_LIMITS } from "@/config/limits";
import type { ReportDigestError } from "./server-sdk";

const PATCHED = Symbol.for("faultline.selfMonitoring.consoleError");

export function startServerMonitoring(): void {
  let reporter: Promise<ReportDigestError | null> | null = null;
  const load = (): Promise<ReportDigestError | null> =>
    (reporter ??= import("./server-sdk")
      .then((m) => m.startServerSdk())
      .catch((err: unknown) => {
        // Self-monitoring never stops the server: errors are still logged as before, and the next one tries again
        // (the database may have been away for a moment).
        console.warn(`faultline: self-monitoring could not start: ${String((err as Error)?.message ?? err).split("\n", 1)[0]}`);
        reporter = null;
        return null;
      }));
  captureDigestErrors((err, digest) => void load().then((report) => report?.(err, digest)));
  setTimeout(() => void load(), SELF_MONITORING_LIMITS.serverSdkDelayMs).unref();
}

/** Calls `report` with each error Next logs with its digest (above), then logs it as before. */
function captureDigestErrors(report: ReportDigestError): void {
  const holder = console as unknown as { [PATCHED]?: boolean };
  if (holder[PATCHED]) return;
  holder[PATCHED] = true;
  const original = console.error.bind(console);
  console.error = (...args: unknown[]) => {
    const [err] = args;
    if (args.length === 1 && err instanceof Error && typeof (err as { digest?: unknown }).digest === "string") {
      report(err, (err as Error & { digest: string }).digest);
    }
    original(...args);
  };
}
