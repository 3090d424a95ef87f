// The digest under an offered load: the backlog sampled every second at a fixed rate (is it bounded?), a ramp of
// rates to find the highest the digest keeps up with, and the time from an event's 200 to its issue in the API.
import { randomInt } from "node:crypto";
import path from "node:path";
import { Histogram } from "./http.mjs";
import { forkRun } from "./ipc.mjs";

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Offers the mix to `fl` in `steps` ([{rate, seconds}]) from a separate process; `onSecond(msg)` once a second. */
export function offer(root, fl, steps, { connections, onSecond = () => {} }) {
  return forkRun(path.join(root, "bench/lib/open-load.mjs"), { dsn: fl.dsn, origin: fl.origin, connections, steps }, { done: "result", onMessage: onSecond });
}

/** Least-squares slope of the points' y over x. */
function slope(points) {
  const n = points.length;
  if (n < 2) return 0;
  const mx = points.reduce((s, p) => s + p.x, 0) / n,
    my = points.reduce((s, p) => s + p.y, 0) / n;
  const sxy = points.reduce((s, p) => s + (p.x - mx) * (p.y - my), 0),
    sxx = points.reduce((s, p) => s + (p.x - mx) ** 2, 0);
  return sxx === 0 ? 0 : sxy / sxx;
}

/**
 * Whether the digest kept up with `rate` over per-second samples. After a 3 s settling time: the backlog (records) grew
 * by less than 3 % of the rate per second (least squares over the second half of a run of 20 s or more, so that a
 * passing stall of the shared machine early on does not count; over all of a shorter one), and it ended below 2 s of
 * load or below where it was at mid-run; and ≤ 1 % of the load was refused by the intake or not offered (all
 * connections busy) over the same seconds.
 */
export function judge(samples, rate, result) {
  const settled = samples.filter((s) => s.t > 3);
  const first = settled[0],
    last = settled.at(-1);
  const trend = settled.length >= 20 ? settled.slice(Math.floor(settled.length / 2)) : settled;
  const growth = slope(trend.map((s) => ({ x: s.t, y: s.records })));
  const digestedPerSec = last && first !== last ? ((last.digested - first.digested) * 1000) / (last.at - first.at) : null;
  const eventsPerSec = last && first !== last ? ((last.events - first.events) * 1000) / (last.at - first.at) : null;
  const mid = settled[Math.floor(settled.length / 2)];
  const sum = (k) => settled.reduce((n, s) => n + s[k], 0);
  const lost = (sum("refused") + sum("failed") + sum("skipped")) / Math.max(1, sum("sent") + sum("skipped"));
  const bounded = last != null && growth <= 0.03 * rate && (last.records <= 2 * rate || last.records <= mid.records);
  return {
    growthPerSec: growth,
    digestedPerSec,
    eventsPerSec,
    acceptedPerSec: result.ok / (samples.length || 1),
    mid,
    last,
    lost,
    bounded,
    ok: bounded && lost <= 0.01,
  };
}

/** Waits until the backlog has no record left; seconds waited, or null after `timeoutMs`. */
export async function drain(backlog, timeoutMs = 90_000) {
  const t = performance.now();
  while (performance.now() - t < timeoutMs) {
    if (backlog.sample().records === 0) return (performance.now() - t) / 1000;
    await sleep(200);
  }
  return null;
}

/** `rate` requests/s of the mix for `seconds`, the backlog sampled every second; then the time to drain it. */
export async function sustained(root, fl, backlog, { rate, seconds, connections }) {
  const samples = [];
  const result = await offer(root, fl, [{ rate, seconds }], { connections, onSecond: (m) => samples.push({ ...m, ...backlog.sample() }) });
  // The drain rate measures the digest alone: the load has stopped, and it empties the backlog left at that moment.
  const left = backlog.sample().records;
  const drainSeconds = await drain(backlog);
  const drainPerSec = drainSeconds && left > 0 ? left / drainSeconds : null;
  return { rate, seconds, samples, result, drainSeconds, drainPerSec, ...judge(samples, rate, result) };
}

/** Steps of `stepSeconds` from `from` by `by` (up while the digest keeps up, else down), the backlog drained between. */
export async function ramp(root, fl, backlog, { from, by, stepSeconds, maxSteps, connections, log }) {
  const steps = [];
  let rate = from,
    direction = 0;
  for (let i = 0; i < maxSteps && rate > 0; i++) {
    const r = await sustained(root, fl, backlog, { rate, seconds: stepSeconds, connections });
    steps.push(r);
    log(
      `  ramp ${rate.toLocaleString("en-US")}/s: digested ${Math.round(r.digestedPerSec ?? 0).toLocaleString("en-US")}/s, backlog ${r.last?.records ?? "?"} records at the end (growing ${Math.round(r.growthPerSec)}/s), refused or not offered ${(r.lost * 100).toFixed(1)} % → ${r.ok ? "keeps up" : r.bounded ? "the intake did not take the whole load" : "falls behind"}`,
    );
    if (direction === 0) direction = r.ok ? 1 : -1;
    if ((direction > 0 && !r.ok) || (direction < 0 && r.ok)) break;
    rate += direction * by;
  }
  const passing = steps.filter((s) => s.ok).map((s) => s.rate);
  return { steps, maxSustained: passing.length ? Math.max(...passing) : null };
}

/** A run tag and marker names in the letters g–z only: no digit or hex run for message parameterization to merge. */
const LETTERS = "ghijklmnopqrstuvwxyz";
const word = (n, len) => Array.from({ length: len }, (_, i) => LETTERS[Math.floor(n / LETTERS.length ** i) % LETTERS.length]).join("");

/** Sends one marker error (its own fingerprint, so its own issue, titled with its name) as @sentry/browser would. */
async function sendMarker(fl, name) {
  const u = new URL(fl.dsn),
    key = u.username,
    project = u.pathname.replace(/^\/+|\/+$/g, "");
  const eventId = [...Array(32)].map(() => "0123456789abcdef"[randomInt(16)]).join("");
  const now = Date.now() / 1000,
    sdk = { name: "sentry.javascript.browser", version: "11.5.0" };
  const body = [
    JSON.stringify({ event_id: eventId, sent_at: new Date().toISOString(), sdk }),
    JSON.stringify({ type: "event" }),
    JSON.stringify({
      event_id: eventId,
      timestamp: now,
      platform: "javascript",
      level: "error",
      message: `bench marker ${name}`,
      fingerprint: [`bench-marker-${name}`],
      environment: "production",
      release: "web@3.2.0",
      sdk,
    }),
  ].join("\n");
  const r = await fetch(`${fl.origin}/api/${project}/envelope/?sentry_key=${key}&sentry_version=7`, {
    method: "POST",
    headers: { "content-type": "text/plain;charset=UTF-8" },
    body,
  });
  await r.text();
  return r.status;
}

/**
 * Event-to-visible latency: under `rate`/s of the mix, a marker every `markerEveryMs`; one poller lists the run's
 * marker issues (a text search for the run's tag, newest first) every `pollMs` and notes when each first appears.
 * A marker's latency is from its 200 to the end of the first response that lists it (an upper bound).
 */
export async function visibleLatency(root, fl, { rate, seconds, markerEveryMs, pollMs, connections, settleSeconds = 3 }) {
  const tag = word(randomInt(20 ** 6), 6),
    markers = new Map();
  let loadDone = false,
    polls = 0,
    sendingDone = false;
  const load = offer(root, fl, [{ rate, seconds }], { connections }).finally(() => {
    loadDone = true;
  });
  const sender = (async () => {
    await sleep(settleSeconds * 1000);
    for (let n = 0; !loadDone; n++) {
      const name = tag + word(n, 4),
        t = performance.now();
      const status = await sendMarker(fl, name);
      if (status === 200) markers.set(name, { acceptedAt: performance.now(), seenAt: null });
      await sleep(Math.max(0, markerEveryMs - (performance.now() - t)));
    }
    sendingDone = true;
  })();
  const listPath = `${fl.origin}/api/0/projects/${fl.org}/${fl.project}/issues/?query=${tag}&sort=new&limit=100`;
  let giveUpAt = Infinity;
  while (performance.now() < giveUpAt) {
    const t = performance.now();
    const outstanding = [...markers.values()].some((m) => m.seenAt === null);
    if (sendingDone && !outstanding) break;
    if (sendingDone && giveUpAt === Infinity) giveUpAt = performance.now() + 30_000;
    if (outstanding) {
      const r = await fetch(listPath, { headers: { authorization: `Bearer ${fl.token}` } });
      const issues = r.status === 200 ? await r.json() : (await r.text(), []);
      polls++;
      const seen = performance.now();
      for (const i of issues) {
        const m = markers.get(String(i.title).split(" ").pop());
        if (m && m.seenAt === null) m.seenAt = seen;
      }
    }
    await sleep(Math.max(0, pollMs - (performance.now() - t)));
  }
  await Promise.all([load, sender]);
  const h = new Histogram();
  let missing = 0;
  for (const m of markers.values()) {
    if (m.seenAt === null) missing++;
    else h.add((m.seenAt - m.acceptedAt) * 1000);
  }
  return { rate, seconds, markers: markers.size, missing, polls, pollMs, markerEveryMs, latency: h.summary(), load: await load };
}
