// Faultline's own browser monitoring (injected into every page's main entry by @sentry/nextjs's build). Small on
// purpose: it reads the configuration the server rendered into the page and loads the SDK as a separate chunk, so
// no route's first-load JavaScript carries it. Nothing loads when self-monitoring is off.
import { readClientConfig } from "./web/self-monitoring/client-config";

type RouterTransitionStart = (href: string, navigationType: string) => void;
let onTransition: RouterTransitionStart | null = null;

function start(): void {
  const config = readClientConfig(document);
  if (!config) return;
  void import("./web/self-monitoring/browser")
    .then(async (m) => {
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
