// The load process (child_process.fork'ed by ingest.mjs): C closed-loop workers over keep-alive connections send the
// mix (mix.mjs) to one target for a warm-up, then for the measured T seconds. Every latency is recorded in a 1 µs
// histogram (exact percentiles, http.mjs). Talks to the parent over IPC: {type:"measure-start"|"measure-end"} then {type:"result"}.
import { Histogram, sender } from "./http.mjs";
import { answerOnce } from "./ipc.mjs";
import { buildPool, render } from "./mix.mjs";

function run({ dsn, origin, connections, seconds, warmup, checkIds }) {
  const { deck, entries } = buildPool(dsn);
  const { send, close } = sender(origin, connections);
  const all = new Histogram(),
    ok = new Histogram();
  const status = {},
    byKind = {},
    samples = {};
  let errorsAcceptedAllRun = 0,
    wrongAnswers = 0,
    bytesSent = 0,
    cursor = 0,
    stopping = false;
  const t0 = performance.now(),
    mStart = t0 + warmup * 1000,
    mEnd = mStart + seconds * 1000;
  let cpuStart,
    inFlightAtStart = 0,
    inFlight = 0;

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
      if (end >= mEnd) {
        markEnd();
        break;
      }
      if (end < mStart) continue; // warm-up
      const us = (end - start) * 1000;
      all.add(us);
      bytesSent += body.length;
      status[r.code] = (status[r.code] ?? 0) + 1;
      const k = (byKind[entry.kind] ??= {});
      k[r.code] = (k[r.code] ?? 0) + 1;
      if (r.code === 200) {
        ok.add(us);
        if (checkIds && !answerMatches(r.text, entry.expectsId ? eventId : null)) {
          if (++wrongAnswers <= 3) (samples.wrong ??= []).push({ kind: entry.kind, sent: eventId, got: r.text.slice(0, 200) });
        }
      } else if ((samples[r.code] ??= []).length < 3) {
        samples[r.code].push({
          kind: entry.kind,
          body: r.text?.slice(0, 300),
          retryAfter: r.headers?.["retry-after"],
          sentryError: r.headers?.["x-sentry-error"],
          rateLimits: r.headers?.["x-sentry-rate-limits"],
        });
      }
    }
  }

  // Measured-window markers for the parent (it samples the server's CPU time at both).
  const startTimer = setTimeout(() => {
    cpuStart = process.cpuUsage();
    inFlightAtStart = inFlight;
    process.send({ type: "measure-start" });
  }, mStart - t0);
  let cpuEnd;
  function markEnd() {
    if (cpuEnd) return;
    stopping = true;
    cpuEnd = process.cpuUsage(cpuStart);
    process.send({ type: "measure-end" });
  }
  const endTimer = setTimeout(markEnd, mEnd - t0);

  return Promise.all(Array.from({ length: connections }, worker)).then(() => {
    clearTimeout(startTimer);
    clearTimeout(endTimer);
    close();
    markEnd();
    const cpu = cpuEnd;
    const accepted = status[200] ?? 0,
      total = all.n;
    return {
      type: "result",
      seconds,
      connections,
      warmup,
      requests: total,
      accepted,
      acceptedPerSec: accepted / seconds,
      requestsPerSec: total / seconds,
      mbSentPerSec: bytesSent / seconds / 1e6,
      status,
      byKind,
      latency: all.summary(),
      latencyAccepted: ok.summary(),
      wrongAnswers,
      samples,
      errorsAcceptedAllRun,
      loadCpuPct: (cpu.user + cpu.system) / 1e4 / seconds,
      inFlightAtStart,
    };
  });
}

/** 200 bodies: {"id": <the event id sent>} for events; {} (or an id) when the request carried no event. */
function answerMatches(text, eventId) {
  try {
    const body = JSON.parse(text);
    return eventId ? body?.id === eventId : body !== null && typeof body === "object";
  } catch {
    return false;
  }
}

answerOnce(run);
