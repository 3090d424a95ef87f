// Response times of the issue API, one request at a time (a user's browser, not a load test), after a warm-up.
import { Histogram } from "./http.mjs";

/** GET `path` with the token; {status, ms, body}. */
export async function timedGet(fl, path) {
  const t = performance.now();
  const r = await fetch(`${fl.origin}/api/0${path}`, { headers: { authorization: `Bearer ${fl.token}` } });
  const text = await r.text();
  return { status: r.status, ms: performance.now() - t, text };
}

/**
 * Times each endpoint: `paths(i)` gives the i-th request's path. An endpoint answering 400 at the first request is
 * reported as unsupported (a sort the API does not have yet) and skipped. Returns {name, n, p50, p95, max} or
 * {name, skipped}.
 */
export async function timeEndpoint(fl, name, paths, { requests, warmup }) {
  const first = await timedGet(fl, paths(0));
  if (first.status === 400) return { name, skipped: `400 ${first.text.slice(0, 120)}` };
  if (first.status !== 200) throw new Error(`${name}: GET ${paths(0)} answered ${first.status}: ${first.text.slice(0, 200)}`);
  for (let i = 1; i < warmup; i++) await timedGet(fl, paths(i));
  const h = new Histogram();
  for (let i = 0; i < requests; i++) {
    const r = await timedGet(fl, paths(warmup + i));
    if (r.status !== 200) throw new Error(`${name}: GET ${paths(warmup + i)} answered ${r.status}: ${r.text.slice(0, 200)}`);
    h.add(r.ms * 1000);
  }
  const s = h.summary();
  return { name, n: s.n, p50: s.p50, p95: s.p95, max: s.max, example: paths(0) };
}

/** The issue list (default, sort=date, new, freq, user), an issue and its latest event, over `issueIds`. */
export async function measureIssueApi(fl, issueIds, opts) {
  const list = `/projects/${fl.org}/${fl.project}/issues/`;
  const pick = (i) => issueIds[(i * 7919) % issueIds.length];
  const out = [];
  for (const [name, p] of [
    ["issue list (default query)", list],
    ["issue list, sort=date", `${list}?sort=date`],
    ["issue list, sort=new", `${list}?sort=new`],
    ["issue list, sort=freq", `${list}?sort=freq`],
    ["issue list, sort=user", `${list}?sort=user`],
  ]) {
    out.push(await timeEndpoint(fl, name, () => p, opts));
  }
  out.push(await timeEndpoint(fl, "issue detail", (i) => `/issues/${pick(i)}/`, opts));
  out.push(await timeEndpoint(fl, "issue's latest event", (i) => `/issues/${pick(i)}/events/latest/`, opts));
  return out;
}
