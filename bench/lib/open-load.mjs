// The open-loop load process (child_process.fork'ed by digest.mjs): offers the mix (mix.mjs) at fixed rates, step by
// step ([{rate, seconds}]), whatever the answers' speed, as SDKs on many clients do. At most `connections` requests are
// in flight; a request due while all are busy is counted as skipped (the rate was not offered), never queued.
// IPC: receives the config, sends {type:"second"} once a second and {type:"result"} at the end.
// `malformed` ({every, requests: [{path, headers, body (base64)}]}, optional): every `every`-th request is one of these
// bad requests instead (bench/soak.mjs), counted apart: their answers are in `malformedStatus`, not in the mix's.
import { Histogram, sender } from "./http.mjs";
import { answerOnce } from "./ipc.mjs";
import { buildPool, render } from "./mix.mjs";

function run({ dsn, origin, connections, steps, malformed }) {
  const { deck, entries } = buildPool(dsn);
  const { send, close } = sender(origin, connections);
  const latency = new Histogram();
  const status = {},
    malformedStatus = {},
    samples = {};
  const bad = (malformed?.requests ?? []).map((r) => ({ entry: { path: r.path, headers: r.headers }, body: Buffer.from(r.body, "base64") }));
  let cursor = 0,
    inFlight = 0,
    fired = 0,
    badCursor = 0;
  const fresh = () => ({ sent: 0, ok: 0, refused: 0, failed: 0, skipped: 0, errorsOk: 0, malformed: 0, valid5xx: 0 });
  let second = fresh();
  const total = fresh();
  const count = (k, n = 1) => {
    second[k] += n;
    total[k] += n;
  };

  function fire() {
    if (inFlight >= connections) return count("skipped");
    if (bad.length > 0 && ++fired % malformed.every === 0) {
      const { entry, body } = bad[badCursor++ % bad.length];
      inFlight++;
      count("malformed");
      send(entry, body).then((r) => {
        inFlight--;
        malformedStatus[r.code] = (malformedStatus[r.code] ?? 0) + 1;
      });
      return;
    }
    const entry = entries[deck[cursor++ % deck.length]];
    const { body } = render(entry.layout);
    const start = performance.now();
    inFlight++;
    count("sent");
    send(entry, body).then((r) => {
      inFlight--;
      latency.add((performance.now() - start) * 1000);
      status[r.code] = (status[r.code] ?? 0) + 1;
      if (r.code === 200) {
        count("ok");
        if (entry.kind.endsWith("error")) count("errorsOk");
      } else if (typeof r.code === "number") {
        count("refused");
        if (r.code >= 500) count("valid5xx");
        if ((samples[r.code] ??= []).length < 3) samples[r.code].push({ kind: entry.kind, body: r.text?.slice(0, 200) });
      } else count("failed");
    });
  }

  return new Promise((resolve) => {
    const t0 = performance.now(),
      cpu0 = process.cpuUsage();
    let step = 0,
      stepStart = t0,
      due = 0,
      lastSecond = t0;
    const tick = () => {
      const now = performance.now();
      if (now - lastSecond >= 1000) {
        lastSecond += 1000;
        process.send({ type: "second", t: Math.round((lastSecond - t0) / 1000), step, rate: steps[step]?.rate ?? 0, inFlight, ...second });
        second = fresh();
      }
      while (step < steps.length && now - stepStart >= steps[step].seconds * 1000) {
        stepStart += steps[step].seconds * 1000;
        step++;
        due = 0;
      }
      if (step >= steps.length) {
        const wait = setInterval(() => {
          if (inFlight > 0) return;
          clearInterval(wait);
          close();
          const cpu = process.cpuUsage(cpu0);
          resolve({
            type: "result",
            ...total,
            status,
            malformedStatus,
            samples,
            latency: latency.summary(),
            seconds: (performance.now() - t0) / 1000,
            cpuSeconds: (cpu.user + cpu.system) / 1e6,
          });
        }, 20);
        return;
      }
      const target = Math.floor(((now - stepStart) / 1000) * steps[step].rate);
      while (due < target) {
        due++;
        fire();
      }
      setTimeout(tick, 2);
    };
    tick();
  });
}

answerOnce(run);
