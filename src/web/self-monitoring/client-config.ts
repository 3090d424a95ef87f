// What the browser needs to report Faultline's own errors and page loads. The build happens before install, so the
// DSN cannot be built in: the root layout renders it into a <meta> (server-config.ts) and the browser reads it here.
// Static pages (the Pages Router's docs, prerendered at build) carry none; they ask GET /monitoring for it.
export type SelfMonitoringClientConfig = {
  dsn: string;
  /** The same-origin tunnel path, under the base path (app/monitoring/route.ts). */
  tunnel: string;
  sampleRate: number;
  tracesSampleRate: number;
};

export const SELF_MONITORING_META = "faultline-self-monitoring";
/** The attribute the 404 page's main element carries (NotFoundView): its page load is discarded (runtime-spec §2). */
export const NOT_FOUND_MARKER = "data-not-found-page";

/** The configuration the page carries; null when self-monitoring is off or the meta is missing or malformed. */
export function readClientConfig(doc: Document): SelfMonitoringClientConfig | null {
  const content = doc.querySelector(`meta[name="${SELF_MONITORING_META}"]`)?.getAttribute("content");
  return content ? parseClientConfig(content) : null;
}

/** A configuration as JSON (the meta's content, or what GET /monitoring answers); null when malformed. */
export function parseClientConfig(json: string): SelfMonitoringClientConfig | null {
  try {
    const c = JSON.parse(json) as Partial<SelfMonitoringClientConfig>;
    if (typeof c.dsn !== "string" || typeof c.tunnel !== "string" || typeof c.sampleRate !== "number" || typeof c.tracesSampleRate !== "number") return null;
    return { dsn: c.dsn, tunnel: c.tunnel, sampleRate: c.sampleRate, tracesSampleRate: c.tracesSampleRate };
  } catch {
    return null;
  }
}
