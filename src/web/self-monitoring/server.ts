// Faultline's own server errors, reported into its internal project with @sentry/nextjs (started by
// src/instrumentation.ts). Envelopes go to the intake in-process (ingest/in-process.ts), never over the network.
//
// Next 14 calls no onRequestError. When a server component fails, Next's app-render error handler
// (next/dist/server/app-render/create-error-handler.js) computes the digest the fallback page shows, sets it on the
// error as `digest`, and then logs the error with console.error. That log call is the one place where the error and
// its digest meet, so it is where Faultline captures: an Error with a string `digest`, tagged `digest`, so searching
// `digest:<n>` in the issue stream finds what a user quotes from the page. Errors Next expects (not-found,
// redirects, dynamic usage) return from the handler before it logs.
import * as Sentry from "@sentry/nextjs";
import { internalDsn } from "@/core/internal-project";
import { inProcessIntake } from "@/ingest/in-process";
import { parseDsn } from "@/protocol/auth";
import { getServices } from "@/runtime/services";

/** Integrations of the Node SDK that only read the event: none patches http, the console, or process handlers. */
const KEPT_INTEGRATIONS = new Set(["EventFilters", "FunctionToString", "LinkedErrors", "Dedupe", "NodeContext", "ContextLines"]);

const PATCHED = Symbol.for("faultline.selfMonitoring.consoleError");

export async function startServerMonitoring(): Promise<void> {
  const { config, store, basePath } = getServices();
  if (!config.selfMonitoring.enabled) return;
  const dsn = await internalDsn(store, config.publicUrl, basePath);
  const key = dsn ? parseDsn(dsn) : null;
  if (!dsn || !key) return;
  Sentry.init({
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
    transport: (options: Parameters<typeof Sentry.createTransport>[0]) =>
      Sentry.createTransport(options, async (request) => {
        const submit = inProcessIntake();
        if (!submit) return {};
        const body = typeof request.body === "string" ? Buffer.from(request.body) : request.body;
        const answer = await submit({ body, clientIp: "127.0.0.1", userAgent: "faultline-self-monitoring", auth: key });
        return { statusCode: answer.ok ? 200 : answer.status };
      }),
  });
  captureDigestErrors();
}

function captureDigestErrors(): void {
  const holder = console as unknown as { [PATCHED]?: boolean };
  if (holder[PATCHED]) return;
  holder[PATCHED] = true;
  const original = console.error.bind(console);
  console.error = (...args: unknown[]) => {
    const [err] = args;
    if (args.length === 1 && err instanceof Error && typeof (err as { digest?: unknown }).digest === "string") {
      const digest = (err as Error & { digest: string }).digest;
      Sentry.withScope((scope) => {
        scope.setTag("digest", digest);
        Sentry.captureException(err, { mechanism: { type: "auto.function.nextjs.on_request_error", handled: false } });
      });
    }
    original(...args);
  };
}
