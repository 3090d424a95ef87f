// Several Faultline nodes on one PostgreSQL behind Debian's nginx, all on loopback, as README "Several nodes" runs
// them: each node `node bin/faultline.mjs start` (bin/faultline's node flags) with its own FAULTLINE_DATA_DIR and
// port, the same DATABASE_URL and FAULTLINE_SECRET_KEY; nginx spreads requests over them. Used by tests/cluster and
// bench/cluster.mjs.
import { spawn, spawnSync } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { stopChild, stopOnInterrupt, waitHttp } from "./proc.mjs";
import { cli, startEnv, startFlags } from "./server.mjs";

export const NGINX = ["/usr/sbin/nginx", "/usr/bin/nginx"].find((p) => existsSync(p)) ?? null;

/** A TCP port nothing listens on now (the kernel's pick on loopback). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/**
 * nginx on a free loopback port in front of `nodePorts` (round robin; a node that refuses connections is skipped, as
 * contrib/nginx.conf's upstream would), with the example's proxy settings. Returns {port, origin, stop}.
 */
/**
 * seconds; how long nginx sends nothing to a node after a connection to it failed (`fail_timeout`; README's example
 * says 5 s). A rolling restart waits this long after a node is back before stopping the next one, or nginx, with both
 * marked failed, answers 502 ("no live upstreams").
 */
export const NGINX_FAIL_TIMEOUT_S = 2;

export async function startNginx(dir, nodePorts) {
  if (!NGINX) throw new Error("nginx is not installed (scripts/test.sh installs Debian's nginx)");
  mkdirSync(dir, { recursive: true });
  const port = await freePort();
  const conf = `daemon off;
master_process off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 1024; }
http {
    access_log off;
    client_body_temp_path ${dir}/body;
    proxy_temp_path ${dir}/proxy;
    fastcgi_temp_path ${dir}/fastcgi;
    uwsgi_temp_path ${dir}/uwsgi;
    scgi_temp_path ${dir}/scgi;
    upstream faultline {
${nodePorts.map((p) => `        server 127.0.0.1:${p} max_fails=1 fail_timeout=${NGINX_FAIL_TIMEOUT_S}s;`).join("\n")}
        keepalive 32;
    }
    server {
        listen 127.0.0.1:${port};
        client_max_body_size 100m;
        proxy_request_buffering off;
        proxy_http_version 1.1;
        proxy_set_header Connection "";
        proxy_set_header Host $http_host;
        proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
        proxy_set_header X-Forwarded-Proto $scheme;
        proxy_set_header X-Forwarded-Host $http_host;
        proxy_read_timeout 120s;
        location / { proxy_pass http://faultline; }
        location /api/internal/ { proxy_pass http://faultline; proxy_buffering off; proxy_read_timeout 360s; }
    }
}
`;
  writeFileSync(path.join(dir, "nginx.conf"), conf);
  const child = stopOnInterrupt(
    spawn(NGINX, ["-c", path.join(dir, "nginx.conf"), "-p", `${dir}/`, "-e", path.join(dir, "error.log")], { stdio: ["ignore", "pipe", "pipe"] }),
  );
  const output = [];
  child.stdout.on("data", (d) => output.push(d.toString()));
  child.stderr.on("data", (d) => output.push(d.toString()));
  const origin = `http://127.0.0.1:${port}`;
  const until = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(
        `nginx exited (${child.exitCode}): ${output.join("")}${existsSync(path.join(dir, "error.log")) ? readFileSync(path.join(dir, "error.log"), "utf8") : ""}`,
      );
    const up = await new Promise((resolve) => {
      const s = net.connect({ host: "127.0.0.1", port }, () => {
        s.destroy();
        resolve(true);
      });
      s.on("error", () => resolve(false));
    });
    if (up) break;
    if (Date.now() > until) throw new Error(`nginx did not listen on ${port}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return { port, origin, child, stop: () => stopChild(child, 5000) };
}

/** One node: `node <start flags> bin/faultline.mjs start` with `env`. Returns {name, port, origin, env, child, output}. */
export async function startNode(root, { name, port, env }) {
  const child = stopOnInterrupt(
    spawn(process.execPath, [...startFlags(root), "bin/faultline.mjs", "start"], {
      cwd: root,
      env: { ...process.env, ...startEnv(root), ...env },
      stdio: ["ignore", "pipe", "pipe"],
    }),
  );
  const output = [];
  const keep = (d) => {
    output.push(d.toString());
    if (output.length > 400) output.shift();
    if (process.env.CLUSTER_VERBOSE) process.stderr.write(`[${name}] ${d}`);
  };
  child.stdout.on("data", keep);
  child.stderr.on("data", keep);
  const origin = `http://127.0.0.1:${port}`;
  try {
    await waitHttp(`${origin}/api/health`, child, 180_000);
  } catch (e) {
    await stopChild(child, 2000);
    throw new Error(`${name}: ${e.message}\n${output.join("").slice(-3000)}`);
  }
  return { name, port, origin, env, child, output };
}

/** SIGTERM and wait (a clean stop); or SIGKILL at once with `kill: true`. Resolves with the exit code or signal. */
export function stopNode(node, { kill = false } = {}) {
  if (!kill) return stopChild(node.child, 20_000);
  return new Promise((resolve) => {
    if (node.child.exitCode !== null || node.child.signalCode !== null) return resolve(node.child.exitCode ?? node.child.signalCode);
    node.child.once("exit", (code, sig) => resolve(code ?? sig));
    node.child.kill("SIGKILL");
  });
}

async function api(origin, token, method, p, body) {
  const r = await fetch(`${origin}/api/0${p}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await r.text();
  if (!r.ok) throw new Error(`${method} /api/0${p}: ${r.status} ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : null;
}

/**
 * `count` nodes on the PostgreSQL database `databaseUrl` behind nginx, in `workDir`: a superuser (email, password)
 * and a token made with the CLI, an organization, team and project through the web API. Returns {nodes, proxy,
 * token, email, password, org, project, projectId, publicKey, dsn, nodeEnv(i), restart(i, opts)}.
 */
export async function startCluster(root, { workDir, databaseUrl, count = 2, env: extraEnv = {} }) {
  mkdirSync(workDir, { recursive: true });
  const ports = [];
  for (let i = 0; i < count; i++) ports.push(await freePort());
  const proxy = await startNginx(path.join(workDir, "nginx"), ports);
  // One secret for every node: a session signed by one is valid on all (README, "Several nodes").
  const secret = randomBytes(32).toString("hex");
  const nodeEnv = (i) => ({
    PORT: String(ports[i]),
    HOST: "127.0.0.1",
    FAULTLINE_URL: proxy.origin,
    FAULTLINE_TRUST_PROXY: "1",
    FAULTLINE_DATA_DIR: path.join(workDir, `node-${i + 1}`),
    DATABASE_URL: databaseUrl,
    FAULTLINE_SECRET_KEY: secret,
    ...extraEnv,
  });
  const email = `cluster-${randomUUID().slice(0, 8)}@example.com`;
  const password = randomBytes(18).toString("base64url");
  const nodes = [];
  let token, org, project, keys;
  try {
    cli(root, nodeEnv(0), ["migrate"]);
    // `--password=value`: a random password may begin with "-", which `--password value` would read as an option.
    cli(root, nodeEnv(0), ["createuser", "--email", email, `--password=${password}`, "--superuser", "--no-input"]);
    token = cli(root, nodeEnv(0), ["createtoken", "--email", email, "--name", "cluster"]).split("\n").pop().trim();
    const started = await Promise.allSettled(ports.map((port, i) => startNode(root, { name: `node-${i + 1}`, port, env: nodeEnv(i) })));
    for (const s of started) if (s.status === "fulfilled") nodes.push(s.value);
    const failed = started.find((s) => s.status === "rejected");
    if (failed) throw failed.reason;
    org = (await api(proxy.origin, token, "POST", "/organizations/", { name: "Cluster" })).slug;
    const team = (await api(proxy.origin, token, "POST", `/organizations/${org}/teams/`, { slug: "cluster" })).slug;
    project = await api(proxy.origin, token, "POST", `/teams/${org}/${team}/projects/`, { name: "Shop", platform: "python" });
    keys = await api(proxy.origin, token, "GET", `/projects/${org}/${project.slug}/keys/`);
  } catch (err) {
    // A set-up that fails half-way stops what it started: a running nginx or node keeps the caller's process alive.
    await Promise.allSettled(nodes.map((n) => stopNode(n)));
    await proxy.stop().catch(() => undefined);
    throw err;
  }
  const dsn = keys[0].dsn.public;
  const cluster = {
    nodes,
    proxy,
    token,
    email,
    password,
    org,
    project: project.slug,
    projectId: Number(project.id),
    publicKey: keys[0].public,
    dsn,
    nodeEnv,
    api: (method, p, body) => api(proxy.origin, token, method, p, body),
    /** Starts node i again on its data dir (after stopNode), with `env` added to its environment. */
    async restart(i, env = {}) {
      nodes[i] = await startNode(root, { name: `node-${i + 1}`, port: ports[i], env: { ...nodeEnv(i), ...env } });
      return nodes[i];
    },
    async stop() {
      await Promise.all(nodes.map((n) => stopNode(n)));
      await proxy.stop();
    },
  };
  return cluster;
}

/** A Python SDK-like error envelope: the same `type` and `value` group into one issue. */
export function errorEnvelope(publicKey, { eventId = randomUUID().replaceAll("-", ""), type = "ClusterError", value = "the same", user = null } = {}) {
  const event = {
    event_id: eventId,
    timestamp: new Date().toISOString(),
    platform: "python",
    level: "error",
    sdk: { name: "sentry.python", version: "2.19.2" },
    exception: { values: [{ type, value, mechanism: { type: "generic", handled: false } }] },
    ...(user ? { user: { id: user } } : {}),
  };
  const body = `${JSON.stringify({ event_id: eventId, sent_at: new Date().toISOString(), dsn: "" })}\n${JSON.stringify({ type: "event", content_type: "application/json" })}\n${JSON.stringify(event)}\n`;
  return {
    eventId,
    body,
    headers: {
      "content-type": "application/x-sentry-envelope",
      "x-sentry-auth": `Sentry sentry_version=7, sentry_client=sentry.python/2.19.2, sentry_key=${publicKey}`,
    },
  };
}

/** POSTs an envelope to `origin` (a node or the proxy); the status, or 0 when the connection failed. */
export async function sendEnvelope(origin, projectId, envelope) {
  try {
    const r = await fetch(`${origin}/api/${projectId}/envelope/`, {
      method: "POST",
      headers: envelope.headers,
      body: envelope.body,
      signal: AbortSignal.timeout(30_000),
    });
    await r.arrayBuffer();
    return r.status;
  } catch {
    return 0;
  }
}

/** Whether spawnSync of nginx -v works (nginx installed and runnable). */
export function nginxRuns() {
  return NGINX !== null && spawnSync(NGINX, ["-v"]).status === 0;
}
