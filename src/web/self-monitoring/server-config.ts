// The browser's self-monitoring configuration, rendered into every page by the root layout (client-config.ts).
// The internal project's DSN is read at most every few seconds per process, so a page render costs no query.
import "server-only";
import { internalDsn } from "@/core/internal-project";
import { getServices } from "@/runtime/services";
import type { SelfMonitoringClientConfig } from "./client-config";

const CACHE_MS = 10_000;
let cached: { at: number; value: Promise<SelfMonitoringClientConfig | null> } | null = null;

export function selfMonitoringClientConfig(): Promise<SelfMonitoringClientConfig | null> {
  // `next build` prerendering has no install to report to.
  if (process.env.NEXT_PHASE === "phase-production-build") return Promise.resolve(null);
  if (cached && Date.now() - cached.at < CACHE_MS) return cached.value;
  const value = load().catch(() => null);
  cached = { at: Date.now(), value };
  return value;
}

async function load(): Promise<SelfMonitoringClientConfig | null> {
  const { config, store, basePath } = getServices();
  if (!config.selfMonitoring.enabled) return null;
  const dsn = await internalDsn(store, config.publicUrl, basePath);
  if (!dsn) return null;
  return { dsn, tunnel: `${basePath}/monitoring`, sampleRate: config.selfMonitoring.errorSampleRate, tracesSampleRate: config.selfMonitoring.tracesSampleRate };
}
