// What both load generators (load.mjs, closed loop; open-load.mjs, a fixed rate) share: a latency histogram and a
// sender of the mix's requests over keep-alive connections.
import http from "node:http";

const HIST_US = 1_000_000; // 1 µs buckets up to 1 s; slower responses are kept exactly in `over`

export class Histogram {
  constructor() {
    this.buckets = new Uint32Array(HIST_US);
    this.over = [];
    this.n = 0;
    this.sum = 0;
    this.max = 0;
  }
  add(us) {
    const v = Math.round(us);
    this.n++;
    this.sum += v;
    if (v > this.max) this.max = v;
    if (v < HIST_US) this.buckets[v]++;
    else this.over.push(v);
  }
  /** Nearest-rank percentile in ms. */
  pct(p) {
    if (this.n === 0) return null;
    const rank = Math.max(1, Math.ceil((p / 100) * this.n));
    let seen = 0;
    for (let i = 0; i < HIST_US; i++) {
      seen += this.buckets[i];
      if (seen >= rank) return i / 1000;
    }
    this.over.sort((a, b) => a - b);
    return this.over[rank - seen - 1] / 1000;
  }
  summary() {
    return { n: this.n, p50: this.pct(50), p95: this.pct(95), p99: this.pct(99), mean: this.n ? this.sum / this.n / 1000 : null, max: this.max / 1000 };
  }
}

/** Sends pre-built requests to `origin` over at most `connections` keep-alive sockets. */
export function sender(origin, connections) {
  const target = new URL(origin);
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections, maxFreeSockets: connections });
  /** Resolves with {code, text, headers}; code is "error:<code>" when the request failed. */
  function send(entry, body) {
    return new Promise((resolve) => {
      const req = http.request(
        { agent, host: target.hostname, port: target.port, method: "POST", path: entry.path, headers: { ...entry.headers, "Content-Length": body.length } },
        (res) => {
          const chunks = [];
          res.on("data", (c) => chunks.push(c));
          res.on("end", () => resolve({ code: res.statusCode, text: Buffer.concat(chunks).toString(), headers: res.headers }));
          res.on("error", (e) => resolve({ code: `error:${e.code ?? e.message}` }));
        },
      );
      req.setTimeout(30_000, () => req.destroy(Object.assign(new Error("timeout"), { code: "TIMEOUT" })));
      req.on("error", (e) => resolve({ code: `error:${e.code ?? e.message}` }));
      req.end(body);
    });
  }
  return { send, close: () => agent.destroy() };
}
