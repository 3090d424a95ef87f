// `faultline start`: migrate, then serve the application on one port with Node's http server.
import type http from "node:http";
import path from "node:path";
import next from "next";
import { type Config, loadConfig } from "../config/env";
import { SHUTDOWN_LIMITS } from "../config/limits";
import { startMetricEvaluator } from "../alerts/metric-evaluator";
import { startMonitorScheduler } from "../monitors/scheduler";
import { intakeSubmitter } from "../monitors/submit";
import { followExternalDigest } from "../digest/external";
import { startDigestWorker } from "../digest/spawn";
import { existingSpoolId, importLegacySpool, openIntake, registerInProcessIntake, spoolDir, startQuotaSync } from "../ingest";
import { dbOptionsFromConfig, openDb } from "../storage/db";
import { startNotifications } from "../notify";
import { createStore } from "../storage/kysely";
import { migrateToLatest } from "../storage/migrate";
import { SpoolBacklog } from "../ingest/spool-backlog";
import { startMetricsListener } from "../observability/http";
import { metrics } from "../observability/metrics";
import { watchPool } from "../observability/pools";
import { builtActionIds, builtNextConfig, distDirOf } from "./build-info";
import { closeHttpServer, createHttpServer } from "./http-server";
import { createListener } from "./listener";
import { describeOwnMaps, uploadOwnSourceMaps } from "./own-sourcemaps";
import { startWeeklySummaries } from "./weekly-summaries";
import { startWeeklyVacuum } from "./weekly-vacuum";
import { startDailyDiskSample } from "./daily-disk-sample";
import { checkSharedSecret } from "./shared-secret";

/**
 * Where Next.js fetches the page after a redirecting server action. Without it, Next uses the request's Host header,
 * so a forged Host would make the server fetch from any address (`next start` sets this; a custom server must).
 */
function internalOrigin(config: Config): string {
  const host = config.host === "0.0.0.0" || config.host === "::" ? "127.0.0.1" : config.host;
  return `http://${host.includes(":") ? `[${host}]` : host}:${config.port}`;
}

export async function start(rootDir: string, log: (line: string) => void = console.log): Promise<http.Server> {
  const distDir = distDirOf(rootDir);
  const nextConfig = builtNextConfig(distDir);
  const basePath = nextConfig.basePath ?? "";
  process.env.FAULTLINE_BASE_PATH = basePath;
  const config = loadConfig();
  // The server's own connection: migrations, then the intake's key lookups. The application code runs inside Next's
  // bundle, which opens its own services; sharing objects across the two bundles would mix two copies of every class.
  const dbOptions = dbOptionsFromConfig(config);
  const db = openDb(dbOptions);
  watchPool("server", db.pool);
  const applied = await migrateToLatest(db);
  if (applied.length > 0) log(`faultline: applied migrations ${applied.join(", ")}`);
  const store = createStore(db);
  // Several nodes on PostgreSQL must share the secret that signs sessions: a node with another one says so.
  if (config.databaseUrl) await checkSharedSecret(store, config.secretKey, !process.env.FAULTLINE_SECRET_KEY, log);
  const spoolId = existingSpoolId(config.dataDir);
  const resumeAfter = spoolId ? await store.getSpoolPosition(spoolId) : 0;
  const intake = openIntake({ dataDir: config.dataDir, durability: config.spoolSync, lookupKey: (k) => store.getIntakeKey(k), log, resumeAfter });
  const moved = await importLegacySpool(config.dataDir, intake.spool, (id) => store.getSpoolPosition(id));
  if (moved > 0) log(`faultline: moved ${moved} undigested items from spool.sqlite3 into the spool`);
  // The dashboard (inside Next's bundle) reaches the same intake through this entry: test events, tunnels.
  registerInProcessIntake(intake.submitEnvelope);
  // On PostgreSQL other nodes may serve the same keys: quotas count every node's units (ingest/quota-sync.ts).
  const quotaSync = config.databaseUrl ? startQuotaSync(intake.limiter, store, log) : null;
  const backlog = new SpoolBacklog(intake.spool, spoolDir(config.dataDir), resumeAfter);
  metrics().watchBacklog(() => backlog.figures());
  const digested = (position: number) => {
    intake.spool.digested(position);
    backlog.digested(position);
  };
  // Every node sends the outbox (claims make each notification go once); the digest thread wakes it after a batch
  // that added notifications, so a webhook goes out within moments of the event that decided it.
  const sender = startNotifications(db, log);
  const digest =
    config.digest === "inline"
      ? startDigestWorker(
          { spoolDir: spoolDir(config.dataDir), db: dbOptions, retentionDays: config.retentionDays, prepareThread: config.digestThreads === 2 },
          digested,
          log,
          {
            onNotifications: () => sender.wake(),
            onBatch: (b) => metrics().digestBatch(b),
          },
        )
      : followExternalDigest(store, intake.spool.id, digested, log);
  if (config.digest === "external") log("faultline: FAULTLINE_DIGEST=external: events are digested by `faultline worker` on this data dir");

  process.env.__NEXT_PRIVATE_ORIGIN = internalOrigin(config);
  // Next reads its configuration from here instead of evaluating next.config.mjs again, as its standalone server
  // does: that file loads the build's plugins (@sentry/nextjs's, about 300 ms of each start: bench:start), and the
  // build's copy is the one the build was made with.
  // Its distDir is where this start found the build (FAULTLINE_DIST_DIR), not where the build was made.
  process.env.__NEXT_PRIVATE_STANDALONE_CONFIG = JSON.stringify({ ...nextConfig, distDir: path.relative(rootDir, distDir) });
  // Next's server also loads its copy of webpack (a 2.5 MB file, about 150 ms of each start) only so that a
  // next.config.js's plugins can require "webpack". Its standalone server, which has no webpack, goes on when that
  // fails, and so does this one: told to use an installed webpack, of which there is none, Next skips its own.
  process.env.NEXT_PRIVATE_LOCAL_WEBPACK = "1";
  const app = next({ dev: false, dir: rootDir, hostname: config.host, port: config.port });
  await app.prepare();
  const server = createHttpServer(
    createListener({
      config,
      basePath,
      intake,
      next: app.getRequestHandler(),
      metricsToken: config.metrics.token,
      actionIds: builtActionIds(distDir),
    }),
  );
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(config.port, config.host, () => resolve());
  });
  const metricsServer = config.metrics.address ? await startMetricsListener(config.metrics.address) : null;
  if (config.metrics.address)
    log(
      `faultline: metrics on http://${config.metrics.address.host.includes(":") ? `[${config.metrics.address.host}]` : config.metrics.address.host}:${config.metrics.address.port}/metrics`,
    );
  if (config.metrics.token) log("faultline: metrics at /metrics with FAULTLINE_METRICS_TOKEN as a bearer token");
  log(
    `faultline: listening on http://${config.host}:${config.port}${basePath} (public URL ${config.publicUrl}${basePath}, ${config.databaseUrl ? "postgres" : "sqlite"})`,
  );
  // The server and the sender only: the SMTP password is never logged.
  log(
    config.mail
      ? `faultline: outgoing mail through ${config.mail.secure ? "smtps" : "smtp"}://${config.mail.host}:${config.mail.port} from ${config.mail.from.address}`
      : "faultline: outgoing mail is not set up (FAULTLINE_SMTP_URL, FAULTLINE_MAIL_FROM): e-mail actions are unavailable",
  );
  // The build's browser source maps, for the internal project's issues: after listening, and never failing the start.
  if (config.selfMonitoring.enabled) {
    void uploadOwnSourceMaps(store, distDir, basePath).then(
      (outcome) => log(describeOwnMaps(outcome)),
      (err: unknown) => log(`faultline: browser source maps not stored: ${String((err as Error)?.message ?? err).split("\n", 1)[0]}`),
    );
  }

  const summaries = startWeeklySummaries(store, log);
  // Free space back to the file system at most weekly, on one node, in small steps (server/weekly-vacuum.ts).
  const vacuum = startWeeklyVacuum(db, store, log);
  // The data dir's usage once a day, for the growth shown under Instance settings → Disk (ops/disk-samples.ts).
  const diskSample = startDailyDiskSample(config.dataDir, db, log);
  // Metric alerts, every minute; with several processes on one database each minute of a rule is claimed by one.
  const metricAlerts = startMetricEvaluator(store, { baseUrl: `${config.publicUrl}${basePath}`, log });
  // Cron monitors' missed check-ins and timeouts, every 10 s (each deadline claimed by one process), and old check-ins pruned.
  const monitors = startMonitorScheduler(store, intakeSubmitter(store, intake.submitEnvelope, log), log, config.retentionDays);

  const stop = () => {
    metricAlerts.stop();
    diskSample.stop();
    metricsServer?.close();
    setTimeout(() => process.exit(0), SHUTDOWN_LIMITS.exitMs).unref();
    // The requests in flight finish first (each may be acknowledging an event), then everything else stops.
    // Everything acknowledged is already on disk; stopping only has to finish the commits in flight.
    // The sender finishes the deliveries in hand and records them; what it never claimed waits in the outbox.
    void closeHttpServer(server)
      .then(() => Promise.all([digest.stop(), summaries.stop(), vacuum.stop(), sender.stop(), quotaSync?.stop(), monitors.stop()]))
      .then(() => {
        registerInProcessIntake(null);
        intake.close();
      })
      .then(() => db.close())
      .finally(() => process.exit(0));
  };
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
  return server;
}
