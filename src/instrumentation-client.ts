// Faultline's own browser monitoring (injected into every page's main entry by @sentry/nextjs's build). Small on
// purpose: it reads the configuration the server rendered into the page and loads the SDK as a separate chunk, so
// no route's first-load JavaScript carries it. Nothing loads when self-monitoring is off.
import { parseClientConfig, readClientConfig, type SelfMonitoringClientConfig } from "./web/self-monitoring/client-config";

type RouterTransitionStart = (href: string, navigationType: string) => void;
let onTransition: RouterTransitionStart | null = null;

/**
 * The configuration the server rendered into the page; a static page (the docs, built before install, recognised by
 * the Pages Router's __NEXT_DATA__) asks the server for it instead. Null when self-monitoring is off.
 */
async function loadConfig(): Promise<SelfMonitoringClientConfig | null> {
  const rendered = readClientConfig(document);
  if (rendered || !document.getElementById("__NEXT_DATA__")) return rendered;
  const res = await fetch(`${process.env.FAULTLINE_BASE_PATH ?? ""}/monitoring`, { credentials: "same-origin" });
  return res.status === 200 ? parseClientConfig(await res.text()) : null;
}

function start(): void {
  void loadConfig()
    .then(async (config) => {
      if (!config) return;
      const m = await import("./web/self-monitoring/browser");
      m.startBrowserMonitoring(config);
      onTransition = (await import("@sentry/nextjs")).captureRouterTransitionStart;
      (window as { faultlineSelfMonitoring?: string }).faultlineSelfMonitoring = "on";
    })
    .catch(() => undefined);
}

if (typeof window !== "undefined") {
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start, { once: true });
  else start();
}

/** Next.js calls this on App Router navigations (Next 15.3 and later; Next 14 leaves it to the SDK's own router instrumentation). */
export function onRouterTransitionStart(href: string, navigationType: string): void {
  onTransition?.(href, navigationType);
}
