// The logs seeder (forked by seeded.mjs cachedLogSet): writes N log lines into a stopped Faultline's database (SQLite
// in the data dir, or PostgreSQL at `databaseUrl`) through the storage layer in bulk: one digest transaction per batch
// (DigestTx.insertLogs, which feeds each dialect's search index as the digest does). Lines as @sentry/node 11 sends
// them (the SDK's attributes, a message template and its parameters, a user id, a route), 10 to a trace, spread over
// `logDays` up to now; levels 10 % debug, 70 % info, 12 % warn, 8 % error. Also, through the digest's own writeBatch,
// the feedback inbox's rows (user reports) and the monitors list's cron monitors with their check-ins, for the pages
// bench:pages times on this data set.
import path from "node:path";
import { sql } from "kysely";
import { register } from "tsx/esm/api";
import { answerOnce } from "./ipc.mjs";
import { prng } from "./mix.mjs";

register();

const TEMPLATES = [
  "order %s placed by customer %s",
  "cache hit for key %s",
  "query on %s took %s ms",
  "retrying payment for order %s",
  "payment provider answered %s for %s",
  "user %s signed in from %s",
  "slow response from inventory service: %s ms",
  "sent invoice %s to %s",
  "coupon %s applied to cart %s",
  "shipping label %s created",
];
const WORDS = "order invoice customer cart item price total amount coupon tax shipping address user account token session warehouse refund".split(" ");
const ROUTES = ["/api/orders", "/api/cart", "/api/checkout", "/api/products/:id", "/api/users/me", "/api/search"];
const hex = (rng, n) => {
  let s = "";
  while (s.length < n)
    s += Math.floor(rng() * 0x100000000)
      .toString(16)
      .padStart(8, "0");
  return s.slice(0, n);
};
const str = (value) => ({ type: "string", value });

async function seed({ dataDir, databaseUrl, publicKey, logs, batch, logDays, feedback, monitors, checkInsPerMonitor }) {
  const { openDb } = await import("../../src/storage/db.ts");
  const { createStore } = await import("../../src/storage/kysely/index.ts");
  const { writeBatch } = await import("../../src/digest/commit.ts");
  const { feedbackOfUserReport } = await import("../../src/digest/feedback.ts");
  const { readCheckIn } = await import("../../src/digest/check-ins.ts");
  const db = openDb(databaseUrl ? { dialect: "postgres", url: databaseUrl } : { dialect: "sqlite", file: path.join(dataDir, "faultline.sqlite3") });
  const store = createStore(db);
  const key = await store.getIntakeKey(publicKey);
  if (!key) throw new Error(`no project key ${publicKey} in ${dataDir}`);
  const projectId = key.projectId;
  const rng = prng(11);
  const end = Date.now(),
    start = end - logDays * 86_400_000,
    step = (end - start) / logs;
  const t0 = performance.now();
  let written = 0,
    lastReport = t0,
    traceId = hex(rng, 32),
    spanId = hex(rng, 16);
  const sampleTraces = [];
  for (let from = 0; from < logs; from += batch) {
    const rows = [];
    for (let i = from; i < Math.min(logs, from + batch); i++) {
      if (i % 10 === 0) {
        traceId = hex(rng, 32);
        spanId = hex(rng, 16);
        if (i % 99_990 === 0) sampleTraces.push(traceId);
      }
      const x = rng();
      const [level, severityNumber] = x < 0.1 ? ["debug", 5] : x < 0.8 ? ["info", 9] : x < 0.92 ? ["warn", 13] : ["error", 17];
      const template = TEMPLATES[Math.floor(rng() * TEMPLATES.length)];
      const a = String(1000 + Math.floor(rng() * 90_000)),
        b = WORDS[Math.floor(rng() * WORDS.length)];
      const at = new Date(start + i * step).toISOString();
      rows.push({
        projectId,
        timestamp: at,
        receivedAt: at,
        level,
        severityNumber,
        body: template.replace("%s", a).replace("%s", b),
        traceId,
        spanId,
        release: "api@5.1.0",
        environment: "production",
        meta: null,
        attributes: {
          "sentry.release": str("api@5.1.0"),
          "sentry.environment": str("production"),
          "sentry.sdk.name": str("sentry.javascript.node"),
          "sentry.sdk.version": str("11.5.0"),
          "sentry.message.template": str(template),
          "sentry.message.parameter.0": str(a),
          "sentry.message.parameter.1": str(b),
          "sentry.trace.parent_span_id": str(spanId),
          "user.id": str(String(Math.floor(rng() * 500))),
          "http.route": str(ROUTES[Math.floor(rng() * ROUTES.length)]),
        },
      });
    }
    await store.digestTransaction((tx) => tx.insertLogs(rows));
    written += rows.length;
    if (performance.now() - lastReport > 10_000) {
      lastReport = performance.now();
      process.send({ type: "progress", logs: written, seconds: (lastReport - t0) / 1000 });
    }
  }
  const logSeconds = (performance.now() - t0) / 1000;
  // The feedback inbox: user reports, through the digest's own batch writer.
  for (let from = 0; from < feedback; from += 1000) {
    const rows = Array.from({ length: Math.min(1000, feedback - from) }, (_, k) =>
      feedbackOfUserReport(
        {
          event_id: hex(rng, 32),
          name: `Customer ${from + k}`,
          email: `customer${from + k}@example.com`,
          comments: `The ${WORDS[(from + k) % WORDS.length]} page did not load after checkout (${from + k}).`,
        },
        projectId,
        new Date(end - (feedback - from - k) * 60_000).toISOString(),
        "user_report",
      ),
    );
    await writeBatch(store, { spoolId: "bench-seed", position: 0, events: [], rawItems: [], outcomes: [], feedback: rows });
  }
  // The monitors list: monitors upserted by their check-ins' monitor_config, each with its recent check-ins.
  for (let c = 0; c < checkInsPerMonitor; c++) {
    const checkIns = [];
    for (let m = 0; m < monitors; m++) {
      const read = readCheckIn(
        {
          check_in_id: hex(rng, 32),
          monitor_slug: `job-${m}`,
          status: rng() < 0.1 ? "error" : "ok",
          duration: rng() * 30,
          environment: m % 3 === 0 ? "staging" : "production",
          monitor_config: { schedule: { type: "interval", value: 1, unit: "hour" }, checkin_margin: 5, max_runtime: 30, timezone: "UTC" },
        },
        projectId,
        new Date(end - (checkInsPerMonitor - c) * 3_600_000).toISOString(),
      );
      if ("item" in read) checkIns.push(read.item);
    }
    await writeBatch(store, { spoolId: "bench-seed", position: 0, events: [], rawItems: [], outcomes: [], checkIns });
  }
  const seconds = (performance.now() - t0) / 1000;
  const count = Number(
    (
      await db.kysely
        .selectFrom("logs")
        .select((eb) => eb.fn.countAll().as("n"))
        .where("project_id", "=", projectId)
        .executeTakeFirstOrThrow()
    ).n,
  );
  // As autovacuum's analyze would have by then; SQLite is left without statistics, as Faultline leaves it.
  if (db.dialect === "postgres") await sql`analyze logs`.execute(db.kysely);
  await db.close();
  return { seconds, logSeconds, logs: count, sampleTraces, feedback, monitors };
}

answerOnce(async (cfg) => ({ type: "done", ...(await seed(cfg)) }));
