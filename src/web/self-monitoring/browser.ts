// Faultline's own browser SDK (@sentry/nextjs), loaded after hydration by src/instrumentation-client.ts so it stays
// out of every route's first-load JavaScript. The page-load span still starts at the navigation's timeOrigin.
import * as Sentry from "@sentry/nextjs";
import { NOT_FOUND_MARKER, type SelfMonitoringClientConfig } from "./client-config";
import { attachFeedbackWidget } from "./feedback-widget";
import { redactEventUrls } from "./redact-urls";

export function startBrowserMonitoring(config: SelfMonitoringClientConfig): void {
  const notFound = document.querySelector(`[${NOT_FOUND_MARKER}]`) !== null;
  Sentry.init({
    dsn: config.dsn,
    // Same origin, checked and taken in-process by the server (ingest/tunnel.ts).
    tunnel: config.tunnel,
    sampleRate: config.sampleRate,
    tracesSampleRate: config.tracesSampleRate,
    // The 404 page's page load is discarded (runtime-spec §2). The SDK drops only a segment named "/404", which an
    // App Router page load never is, so the page's own marker decides; the drop is counted in a client report
    // ("ignored"), which reaches the intake like any SDK's.
    ignoreSpans: notFound ? [{ op: "pageload" }] : [],
    // Duplicate errors are dropped (runtime-spec §8). Dedupe compares an event with the previous one, but the stack
    // frame normalization of @sentry/nextjs rewrites the previous event's frames in place after Dedupe kept it, so
    // two identical errors never compare equal. Running Dedupe after the normalization compares normalized frames on
    // both sides.
    integrations: (defaults) => [...defaults.filter((i) => i.name !== "Dedupe"), Sentry.dedupeIntegration()],
    // Reset tokens, invitation secrets and searched addresses stay out of Faultline's own reports (redact-urls.ts).
    beforeSend: redactEventUrls,
    beforeSendTransaction: redactEventUrls,
  });
  // "Report a problem" on the signed-in pages (feedback-widget.ts).
  attachFeedbackWidget();
}

/** An error a boundary caught in the browser (error.tsx, global-error.tsx), which no global handler sees. */
export function captureBoundaryError(error: unknown): void {
  Sentry.captureException(error, { mechanism: { type: "auto.function.nextjs.error_boundary", handled: false } });
}
