// The load process (child_process.fork'ed by ingest.mjs): C closed-loop workers over keep-alive connections send the
// mix (mix.mjs) to one target for a warm-up, then for the measured T seconds. Every latency is recorded in a 1 µs
// histogram (exact percentiles). Talks to the parent over IPC: {type:"measure-start"|"measure-end"} then {type:"result"}.
import http from "node:http";
import { buildPool, render } from "./mix.mjs";

const HIST_US = 1_000_000; // 1 µs buckets up to 1 s; slower responses are kept exactly in `over`

export class Histogram {
  constructor() { this.buckets = new Uint32Array(HIST_US); this.over = []; this.n = 0; this.sum = 0; this.max = 0; }
  add(us) {
    const v = Math.round(us); this.n++; this.sum += v; if (v > this.max) this.max = v;
    if (v < HIST_US) this.buckets[v]++; else this.over.push(v);
  }
  /** Nearest-rank percentile in ms. */
  pct(p) {
    if (this.n === 0) return null;
    const rank = Math.max(1, Math.ceil((p / 100) * this.n));
    let seen = 0;
    for (let i = 0; i < HIST_US; i++) { seen += this.buckets[i]; if (seen >= rank) return i / 1000; }
    this.over.sort((a, b) => a - b);
    return this.over[rank - seen - 1] / 1000;
  }
  summary() {
    return { n: this.n, p50: this.pct(50), p95: this.pct(95), p99: this.pct(99), mean: this.n ? this.sum / this.n / 1000 : null, max: this.max / 1000 };
  }
}

function run({ dsn, origin, connections, seconds, warmup, checkIds }) {
  const { deck, entries } = buildPool(dsn);
  const target = new URL(origin);
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections, maxFreeSockets: connections });
  const all = new Histogram(), ok = new Histogram();
  const status = {}, byKind = {}, samples = {};
  let errorsAcceptedAllRun = 0, wrongAnswers = 0, bytesSent = 0, cursor = 0, stopping = false;
  const t0 = performance.now(), mStart = t0 + warmup * 1000, mEnd = mStart + seconds * 1000;
  let cpuStart, inFlightAtStart = 0, inFlight = 0;

  function send(entry, body) {
    return new Promise((resolve) => {
      const req = http.request({ agent, host: target.hostname, port: target.port, method: "POST", path: entry.path,
        headers: { ...entry.headers, "Content-Length": body.length } }, (res) => {
        const chunks = [];
        res.on("data", (c) => chunks.push(c));
        res.on("end", () => resolve({ code: res.statusCode, text: Buffer.concat(chunks).toString(), headers: res.headers }));
        res.on("error", (e) => resolve({ code: `error:${e.code ?? e.message}` }));
      });
      req.setTimeout(30_000, () => req.destroy(Object.assign(new Error("timeout"), { code: "TIMEOUT" })));
      req.on("error", (e) => resolve({ code: `error:${e.code ?? e.message}` }));
      req.end(body);
    });
  }

  async function worker() {
    while (!stopping) {
      const entry = entries[deck[cursor++ % deck.length]];
      const { body, eventId } = render(entry.layout);
      const start = performance.now();
      inFlight++;
      const r = await send(entry, body);
      inFlight--;
      const end = performance.now();
      if (r.code === 200 && entry.kind.endsWith("error")) errorsAcceptedAllRun++; // warm-up and tail included
      if (end >= mEnd) { markEnd(); break; }
      if (end < mStart) continue; // warm-up
      const us = (end - start) * 1000;
      all.add(us); bytesSent += body.length;
      status[r.code] = (status[r.code] ?? 0) + 1;
      const k = (byKind[entry.kind] ??= {});
      k[r.code] = (k[r.code] ?? 0) + 1;
      if (r.code === 200) {
        ok.add(us);
        if (checkIds && !answerMatches(r.text, entry.expectsId ? eventId : null)) {
          if (++wrongAnswers <= 3) (samples.wrong ??= []).push({ kind: entry.kind, sent: eventId, got: r.text.slice(0, 200) });
        }
      } else if ((samples[r.code] ??= []).length < 3) {
        samples[r.code].push({ kind: entry.kind, body: r.text?.slice(0, 300), retryAfter: r.headers?.["retry-after"], sentryError: r.headers?.["x-sentry-error"], rateLimits: r.headers?.["x-sentry-rate-limits"] });
      }
    }
  }

  // Measured-window markers for the parent (it samples the server's CPU time at both).
  const startTimer = setTimeout(() => { cpuStart = process.cpuUsage(); inFlightAtStart = inFlight; process.send({ type: "measure-start" }); }, mStart - t0);
  let cpuEnd;
  function markEnd() { if (cpuEnd) return; stopping = true; cpuEnd = process.cpuUsage(cpuStart); process.send({ type: "measure-end" }); }
  const endTimer = setTimeout(markEnd, mEnd - t0);

  return Promise.all(Array.from({ length: connections }, worker)).then(() => {
    clearTimeout(startTimer); clearTimeout(endTimer);
    agent.destroy();
    markEnd();
    const cpu = cpuEnd;
    const accepted = status[200] ?? 0, total = all.n;
    return {
      type: "result", seconds, connections, warmup, requests: total, accepted,
      acceptedPerSec: accepted / seconds, requestsPerSec: total / seconds, mbSentPerSec: bytesSent / seconds / 1e6,
      status, byKind, latency: all.summary(), latencyAccepted: ok.summary(), wrongAnswers, samples, errorsAcceptedAllRun,
      loadCpuPct: ((cpu.user + cpu.system) / 1e4) / seconds, inFlightAtStart,
    };
  });
}

/** 200 bodies: {"id": <the event id sent>} for events; {} (or an id) when the request carried no event. */
function answerMatches(text, eventId) {
  try {
    const body = JSON.parse(text);
    return eventId ? body?.id === eventId : body !== null && typeof body === "object";
  } catch { return false; }
}

process.once("message", async (cfg) => {
  try {
    process.send(await run(cfg));
  } catch (e) {
    process.send({ type: "error", message: e.stack ?? String(e) });
  }
  process.disconnect();
});
