// The server's SDK for self-monitoring (@sentry/nextjs), loaded by server.ts once the server has started. Envelopes
// go to the intake in-process (ingest/in-process.ts), never over the network.
import type { createTransport as CreateTransport } from "@sentry/core";
import { internalDsn } from "@/core/internal-project";
import { inProcessIntake } from "@/ingest/in-process";
import { parseDsn } from "@/protocol/auth";
import { getServices } from "@/runtime/services";

/** Reports an error Next logged with the digest its fallback page shows. */
export type ReportDigestError = (err: Error, digest: string) => void;

/** Integrations of the Node SDK that only read the event: none patches http, the console, or process handlers. */
const KEPT_INTEGRATIONS = new Set(["EventFilters", "FunctionToString", "LinkedErrors", "Dedupe", "NodeContext", "ContextLines"]);

/** Starts the SDK into the internal project; null when self-monitoring is off or the install has no internal DSN. */
export async function startServerSdk(): Promise<ReportDigestError | null> {
  const { config, store, basePath } = getServices();
  if (!config.selfMonitoring.enabled) return null;
  const dsn = await internalDsn(store, config.publicUrl, basePath);
  const key = dsn ? parseDsn(dsn) : null;
  if (!dsn || !key) return null;
  // Loaded only when there is something to report to. The scope and transport functions come from @sentry/core, which
  // @sentry/nextjs re-exports: its server entry is CommonJS that re-exports them in a loop, which Node's ES module
  // loader (the node suites) cannot name.
  const [{ init }, { captureException, createTransport, withScope }] = await Promise.all([import("@sentry/nextjs"), import("@sentry/core")]);
  init({
    dsn,
    sampleRate: config.selfMonitoring.errorSampleRate,
    // Server spans are not collected: page loads are measured in the browser. So the SDK's runtime instrumentation,
    // which rewrites modules as they load so that they emit spans (ESM loader hooks on a thread of their own, and a
    // wrapper around every CommonJS compile), would only cost: about 200 ms of each start (bench:start) and a thread.
    tracesSampleRate: 0,
    enableRuntimeChannelInjection: false,
    // Nor is Sentry's OpenTelemetry tracer provider registered, which @sentry/nextjs does by default for Next's own
    // spans: with it, each of the dozens of spans Next opens per request (rendering, routing, metadata) was made and
    // entered in an async context, unsampled: about 1 ms of every request (bench:pages, GET /api/health p50 3.5 ms
    // against 2.4 ms without self-monitoring). Without it they stay OpenTelemetry's no-ops.
    enableOpenTelemetrySetup: false,
    integrations: (defaults) => defaults.filter((i) => KEPT_INTEGRATIONS.has(i.name)),
    transport: (options: Parameters<typeof CreateTransport>[0]) =>
      createTransport(options, async (request) => {
        const submit = inProcessIntake();
        if (!submit) return {};
        const body = typeof request.body === "string" ? Buffer.from(request.body) : request.body;
        const answer = await submit({ body, clientIp: "127.0.0.1", userAgent: "faultline-self-monitoring", auth: key });
        return { statusCode: answer.ok ? 200 : answer.status };
      }),
  });
  return (err, digest) =>
    withScope((scope) => {
      scope.setTag("digest", digest);
      captureException(err, { mechanism: { type: "auto.function.nextjs.on_request_error", handled: false } });
    });
}
