// Faultline's own figures in Prometheus' text format (prom-client), for `GET /metrics` (http.ts). One registry per
// process, kept on globalThis like the services (the server and Next's bundle each load their own copy of modules);
// the server's bundle records, nothing in Next's bundle needs to. Names follow Prometheus' conventions: the
// `faultline_` prefix, `_total` for counters, base units (`_seconds`, `_bytes`).
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";
import { METRICS_LIMITS } from "../config/limits";
import { poolFigures } from "./pools";

/** The spool's backlog as the intake sees it (ingest/spool-backlog.ts). */
export type BacklogFigures = { records: number; bytes: number; seconds: number; segments: number };

/** What the digest thread reports after each committed batch (digest/thread.ts → supervisor.ts). */
export type DigestBatchFigures = { records: number; events: number; latenciesMs: number[]; at: number };

export type FaultlineMetrics = {
  registry: Registry;
  /** An intake request answered: its endpoint, status and (when refused) the reason of ingest/refusals.ts. */
  intakeAnswer: (endpoint: string, status: number, reason: string) => void;
  /** Items the intake counted under an outcome (accepted, filtered, rate_limited, invalid), by category. */
  outcome: (category: string, outcome: string, reason: string, quantity: number) => void;
  digestBatch: (batch: DigestBatchFigures) => void;
  /** A notification delivery attempt's outcome: sent, pending (to be retried) or failed. */
  notification: (source: string, status: string) => void;
  /** Starts timing a page or API request; the returned function ends it with the answer's status. */
  pageTimer: (route: string) => (status: number) => void;
  /** Where the backlog figures come from (the server's spool); none: reported as 0. */
  watchBacklog: (source: (() => BacklogFigures) | null) => void;
};

const KEY = Symbol.for("faultline.metrics");
type Holder = { [KEY]?: FaultlineMetrics };

function create(): FaultlineMetrics {
  const registry = new Registry();
  // Process memory, CPU, handles, the event loop's delay (a histogram sampled by perf_hooks) and the heap spaces.
  collectDefaultMetrics({ register: registry, prefix: "faultline_", eventLoopMonitoringPrecision: METRICS_LIMITS.eventLoopPrecisionMs });
  const registers = [registry];

  const intakeRequests = new Counter({
    name: "faultline_intake_requests_total",
    help: 'Intake requests answered, by endpoint, HTTP status and refusal reason ("accepted" for a 200).',
    labelNames: ["endpoint", "status", "reason"],
    registers,
  });
  const outcomes = new Counter({
    name: "faultline_intake_outcomes_total",
    help: "Items counted by the intake, by data category, outcome and reason.",
    labelNames: ["category", "outcome", "reason"],
    registers,
  });
  const digestRecords = new Counter({ name: "faultline_digest_records_total", help: "Spool records the digest committed.", registers });
  const digestEvents = new Counter({ name: "faultline_digest_events_total", help: "Events (errors, transactions, feedback) the digest committed.", registers });
  const digestBatches = new Counter({ name: "faultline_digest_batches_total", help: "Batches the digest committed.", registers });
  const lastBatch = new Gauge({
    name: "faultline_digest_last_batch_timestamp_seconds",
    help: "When the digest last committed a batch (Unix time).",
    registers,
  });
  const lag = new Gauge({
    name: "faultline_digest_lag_seconds",
    help: "Time from the intake's acceptance to the commit, of the newest event of the last batch.",
    registers,
  });
  const visible = new Histogram({
    name: "faultline_event_visible_seconds",
    help: "Time from the intake's acceptance of an event to its commit by the digest (then it is visible).",
    buckets: [...METRICS_LIMITS.visibleLatencyBuckets],
    registers,
  });
  const notifications = new Counter({
    name: "faultline_notification_deliveries_total",
    help: "Notification delivery attempts, by source and outcome (sent, pending: to be retried, failed: given up).",
    labelNames: ["source", "status"],
    registers,
  });
  const pages = new Histogram({
    name: "faultline_page_render_seconds",
    help: "Time to answer a page or API request through Next.js, by route.",
    labelNames: ["route", "status_class"],
    buckets: [...METRICS_LIMITS.pageBuckets],
    registers,
  });

  let backlog: (() => BacklogFigures) | null = null;
  const backlogFigures = () => backlog?.() ?? { records: 0, bytes: 0, seconds: 0, segments: 0 };
  new Gauge({
    name: "faultline_spool_backlog_records",
    help: "Spool records not yet committed by the digest.",
    registers,
    collect() {
      this.set(backlogFigures().records);
    },
  });
  new Gauge({
    name: "faultline_spool_backlog_bytes",
    help: "Spool bytes not yet committed by the digest.",
    registers,
    collect() {
      this.set(backlogFigures().bytes);
    },
  });
  new Gauge({
    name: "faultline_spool_backlog_seconds",
    help: "Age of the oldest spool record not yet committed by the digest (0 when caught up).",
    registers,
    collect() {
      this.set(backlogFigures().seconds);
    },
  });
  new Gauge({
    name: "faultline_spool_segments",
    help: "Segment files of the spool on disk.",
    registers,
    collect() {
      this.set(backlogFigures().segments);
    },
  });
  new Gauge({
    name: "faultline_db_pool_connections",
    help: "Database connections by pool (server: the server's own; app: the pages') and state (total, idle, waiting: queries waiting for one).",
    labelNames: ["pool", "state"],
    registers,
    collect() {
      this.reset();
      for (const [pool, f] of poolFigures()) {
        this.set({ pool, state: "total" }, f.total);
        this.set({ pool, state: "idle" }, f.idle);
        this.set({ pool, state: "waiting" }, f.waiting);
      }
    },
  });

  return {
    registry,
    intakeAnswer: (endpoint, status, reason) => intakeRequests.inc({ endpoint, status: String(status), reason }),
    outcome: (category, outcome, reason, quantity) => outcomes.inc({ category, outcome, reason }, quantity),
    digestBatch(b) {
      digestBatches.inc();
      digestRecords.inc(b.records);
      digestEvents.inc(b.events);
      lastBatch.set(b.at / 1000);
      for (const ms of b.latenciesMs) visible.observe(Math.max(0, ms) / 1000);
      if (b.latenciesMs.length > 0) lag.set(Math.max(0, Math.min(...b.latenciesMs)) / 1000);
    },
    notification: (source, status) => notifications.inc({ source, status }),
    pageTimer(route) {
      const end = pages.startTimer({ route });
      return (status) => end({ status_class: `${Math.floor(status / 100)}xx` });
    },
    watchBacklog(source) {
      backlog = source;
    },
  };
}

/** The process's metrics, created on first use. */
export function metrics(): FaultlineMetrics {
  const holder = globalThis as Holder;
  holder[KEY] ??= create();
  return holder[KEY];
}
