// Response times of server-rendered pages as a signed-in browser asks for them: a session cookie from Faultline's own
// sign-in form, each page read to its last byte, one at a time or with a few in flight.
import http from "node:http";
import { Histogram } from "./http.mjs";

const unescapeHtml = (s) =>
  s
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");

/**
 * Signs in as a browser without JavaScript does: reads the sign-in page's form (the server action's hidden fields),
 * posts it with the e-mail and password, and returns the Cookie header the answer's session cookie makes.
 */
export async function signInCookie(origin, basePath, email, password) {
  const url = `${origin}${basePath}/en/sign-in`;
  const html = await (await fetch(url)).text();
  const form = /<form[^>]*data-testid="sign-in-form"[^>]*>([\s\S]*?)<\/form>/.exec(html)?.[1];
  if (!form) throw new Error(`no sign-in form at ${url}`);
  const body = new FormData();
  for (const [, name, value] of form.matchAll(/<input type="hidden" name="([^"]+)"(?: value="([^"]*)")?\/?>/g))
    body.append(unescapeHtml(name), unescapeHtml(value ?? ""));
  body.append("email", email);
  body.append("password", password);
  const r = await fetch(url, { method: "POST", body, headers: { origin }, redirect: "manual" });
  const cookies = [
    ...new Map(
      r.headers
        .getSetCookie()
        .map((c) => c.split(";")[0])
        .map((c) => [c.split("=")[0], c]),
    ).values(),
  ];
  if (!cookies.some((c) => c.includes("session_token=")))
    throw new Error(`signing in as ${email} set no session cookie (${r.status}): ${(await r.text()).slice(0, 200)}`);
  return cookies.join("; ");
}

/** GET `path` over a keep-alive agent; {status, ms, location}, the body read to the end. Redirects are not followed. */
function timedGet(agent, origin, path, cookie) {
  const target = new URL(origin);
  const t = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.get({ agent, host: target.hostname, port: target.port, path, headers: { cookie, accept: "text/html" } }, (res) => {
      let bytes = 0;
      res.on("data", (c) => {
        bytes += c.length;
      });
      res.on("end", () => resolve({ status: res.statusCode, ms: performance.now() - t, bytes, location: res.headers.location }));
      res.on("error", reject);
    });
    req.setTimeout(60_000, () => req.destroy(new Error(`GET ${path}: no answer in 60 s`)));
    req.on("error", reject);
  });
}

/**
 * Times one page: `paths(i)` is the i-th request's path. A first answer of 404 reports the page as not built
 * (skipped); any other answer but 200 fails. `warmup` requests first, then `requests` one at a time, then `requests`
 * with `concurrency` in flight. Returns {sequential, concurrent} summaries (ms) or {skipped}.
 */
export async function timePage(origin, cookie, paths, { requests, warmup, concurrency }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const check = (r, path) => {
    if (r.status !== 200) throw new Error(`GET ${path} answered ${r.status}${r.location ? ` (to ${r.location})` : ""}`);
    return r;
  };
  try {
    const first = await timedGet(agent, origin, paths(0), cookie);
    if (first.status === 404) return { skipped: `GET ${paths(0)} answered 404 (the page is not built yet)` };
    check(first, paths(0));
    for (let i = 1; i < warmup; i++) check(await timedGet(agent, origin, paths(i), cookie), paths(i));
    const sequential = new Histogram();
    for (let i = 0; i < requests; i++) sequential.add(check(await timedGet(agent, origin, paths(warmup + i), cookie), paths(warmup + i)).ms * 1000);
    const concurrent = new Histogram();
    let next = 0;
    const worker = async () => {
      while (next < requests) {
        const i = warmup + requests + next++;
        concurrent.add(check(await timedGet(agent, origin, paths(i), cookie), paths(i)).ms * 1000);
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
    return { example: paths(0), bytes: first.bytes, sequential: sequential.summary(), concurrent: concurrent.summary() };
  } finally {
    agent.destroy();
  }
}
