// bench:digest's closing tables: the figures against issue 22's targets, and ratios to this run's bare SQLite baseline.

/**
 * Issue 22's targets, which raised issue 4's (2,000 events/s, 1 s, 50 ms, 2 KB): the digest's stored events per
 * second with everything on; event-to-visible p95 at 1,000 events/s; the issue list's p95 at 1M events, every sort;
 * bytes on disk per stored 5 KB browser error (bench:storage measures the same with its parts).
 */
export const TARGETS = { eventsPerSec: 3000, visibleP95Ms: 250, visibleAtEventsPerSec: 1000, listP95Ms: 20, bytesPerEvent: 1229 };

const fmt = (n, d = 0) => (n == null || Number.isNaN(n) ? "n/a" : n.toLocaleString("en-US", { minimumFractionDigits: d, maximumFractionDigits: d }));
const check = (ok) => (ok == null ? "n/a" : ok ? "yes" : "NO");

export function printSummary(out, cfg, log) {
  const m = out.machine;
  log(`\n## Digest benchmark (${m.cores} cores, Node ${m.node}, load average at start ${m.loadAverageAtStart})\n`);
  log("| target | goal | measured | met |\n| --- | --- | ---: | --- |");
  const s = out.sustained;
  // The mix's share of requests that store an event (errors and transactions), from the fixed-rate run.
  const eventShare = s?.eventsPerSec && s.digestedPerSec ? s.eventsPerSec / s.digestedPerSec : null;
  if (s) {
    log(
      `| digest keeps up at ${fmt(cfg.rate)} requests/s for ${cfg.seconds} s, backlog bounded | ≥ ${fmt(TARGETS.eventsPerSec)} events/s | ${fmt(s.digestedPerSec)} items/s digested (${fmt(s.eventsPerSec)} stored events/s); backlog ${fmt(s.mid?.records)} → ${fmt(s.last?.records)} records (mid → end) | ${check(s.ok && s.eventsPerSec != null && s.eventsPerSec >= TARGETS.eventsPerSec)} |`,
    );
    log(
      `| highest rate kept up with (${out.ramp ? "ramp" : "fixed run only"}) | ≥ ${fmt(TARGETS.eventsPerSec)} events/s | ${out.maxSustained == null ? "none" : `${fmt(out.maxSustained)} requests/s${eventShare ? ` (about ${fmt(out.maxSustained * eventShare)} events/s)` : ""}`} | ${check(out.maxSustained != null && eventShare != null && out.maxSustained * eventShare >= TARGETS.eventsPerSec)} |`,
    );
  }
  const l = out.latency;
  if (l) {
    const ok = l.latency.n > 0 && l.missing === 0 && l.latency.p95 <= TARGETS.visibleP95Ms;
    const events = eventShare ? l.rate * eventShare : null;
    // Missed at a lower rate is missed; met counts only at the target's rate or above.
    const met = !ok ? "NO" : events != null && events >= TARGETS.visibleAtEventsPerSec ? "yes" : "n/a (a lower rate)";
    log(
      `| event-to-visible p95 at ${fmt(l.rate)} requests/s${events ? ` (about ${fmt(events)} events/s)` : ""} | ≤ ${fmt(TARGETS.visibleP95Ms)} ms at ${fmt(TARGETS.visibleAtEventsPerSec)} events/s | ${fmt(l.latency.p95)} ms (p50 ${fmt(l.latency.p50)} ms${l.missing ? `, ${l.missing} never listed` : ""}) | ${met} |`,
    );
  }
  if (out.api) {
    const lists = out.api.endpoints.filter((e) => e.name.startsWith("issue list") && !e.skipped);
    const worst = lists.reduce((a, e) => (a && a.p95 >= e.p95 ? a : e), null);
    log(
      `| issue list p95, ${fmt(out.api.seed.events)} events in ${fmt(out.api.seed.issues)} issues (worst of ${lists.length} variants: ${worst?.name.replace(/^issue list,? ?/, "").replace(/[()]/g, "") ?? "none"}) | ≤ ${TARGETS.listP95Ms} ms | ${fmt(worst?.p95, 1)} ms | ${check(worst ? worst.p95 <= TARGETS.listP95Ms : null)} |`,
    );
    for (const e of out.api.endpoints)
      if (e !== worst)
        log(
          `| ${e.name} p95 | ${e.name.startsWith("issue list") ? `≤ ${TARGETS.listP95Ms} ms` : "(no target)"} | ${e.skipped ? "not supported (400)" : `${fmt(e.p95, 1)} ms`} | ${e.skipped || !e.name.startsWith("issue list") ? "n/a" : check(e.p95 <= TARGETS.listP95Ms)} |`,
        );
  }
  const rp = out.replay;
  if (rp) {
    const rates = rp.runs.map((r) => r.perSec);
    log(
      `| the digest alone on one spool of the mix (replay, median of ${rp.runs.length}) | ≥ ${fmt(TARGETS.eventsPerSec)} events/s | ${fmt(rp.medianEventsPerSec)} events/s; ${fmt(rp.medianPerSec)} records/s (${fmt(Math.min(...rates))}–${fmt(Math.max(...rates))}); CPU ${fmt(rp.medianCpuMicros)} µs per record | ${check(rp.medianEventsPerSec >= TARGETS.eventsPerSec)} |`,
    );
  }
  const b = out.bytes;
  if (b)
    log(
      `| bytes on disk per stored 5 KB browser error | ≤ ${fmt(TARGETS.bytesPerEvent)} B | ${fmt(b.perEvent)} B (event JSON sent: ${fmt(b.sentBytes)} B) | ${check(b.perEvent <= TARGETS.bytesPerEvent)} |`,
    );

  log("\n| ratio to this run's bare SQLite insert rate | value |\n| --- | ---: |");
  log(`| bare SQLite inserts of the 5 KB event JSON (rows/s) | ${fmt(out.bareInsertsPerSec)} |`);
  if (s?.digestedPerSec) log(`| digested items/s at ${fmt(cfg.rate)}/s ÷ bare inserts/s | ${fmt(s.digestedPerSec / out.bareInsertsPerSec, 3)} |`);
  if (rp) log(`| replay records/s (the digest alone) ÷ bare inserts/s | ${fmt(rp.medianPerSec / out.bareInsertsPerSec, 3)} |`);
  if (out.maxSustained) log(`| highest rate kept up with ÷ bare inserts/s | ${fmt(out.maxSustained / out.bareInsertsPerSec, 3)} |`);
  if (out.api && !out.api.cached)
    log(
      `| seeding events/s (digest code in-process, no HTTP) ÷ bare inserts/s | ${fmt(out.api.seed.events / out.api.seed.seconds / out.bareInsertsPerSec, 3)} |`,
    );
  log(
    "\n(items: the mix's requests, one spool record each: errors, transactions, sessions, client reports. Backlog: records in the spool behind the position the digest saved. Bounded: after 3 s, the backlog grew by < 3 % of the rate per second (over the second half of a 60 s run) and ended below 2 s of load or below its mid-run size, with ≤ 1 % of the load refused or not offered. The machine is shared; the ratios are steadier than the absolute figures.)",
  );
}
