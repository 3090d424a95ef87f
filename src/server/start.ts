// `faultline start`: migrate, then serve the application on one port with Node's http server.
import { readFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import next from "next";
import { CLIENT_IP_HEADER } from "../auth/create-auth";
import { type Config, loadConfig } from "../config/env";
import { dbOptionsFromConfig, openDb } from "../storage/db";
import { migrateToLatest } from "../storage/migrate";
import { checkActionBody } from "./action-body";
import { crossOriginActionRefusal } from "./guards";

/** The base path is fixed at build time; read it from the build so DSNs and links always match the served URLs. */
function builtBasePath(rootDir: string): string {
  const distDir = path.join(rootDir, process.env.FAULTLINE_DIST_DIR || ".next");
  const file = path.join(distDir, "required-server-files.json");
  try {
    return (JSON.parse(readFileSync(file, "utf8")) as { config?: { basePath?: string } }).config?.basePath ?? "";
  } catch {
    throw new Error(`No production build found in ${distDir}: run \`npm run build\` first.`);
  }
}

/**
 * The client address as the server saw it. Behind a trusted proxy, the last X-Forwarded-For entry: the one the proxy
 * appended itself (entries to its left are whatever the client wrote, and would let it pick its rate-limit bucket).
 */
function clientIp(req: http.IncomingMessage, config: Config): string {
  if (config.trustProxy) {
    const forwarded = req.headers["x-forwarded-for"];
    const last = (Array.isArray(forwarded) ? forwarded.join(",") : forwarded)?.split(",").pop()?.trim();
    if (last) return last;
  }
  return req.socket.remoteAddress ?? "unknown";
}

/** Forwarded-host headers are only believed from a trusted proxy; otherwise a client could claim any host. */
function dropUntrustedForwarding(req: http.IncomingMessage, config: Config): void {
  if (config.trustProxy) return;
  delete req.headers["x-forwarded-host"];
  delete req.headers["x-forwarded-proto"];
  delete req.headers["x-forwarded-for"];
}

/**
 * Where Next.js fetches the page after a redirecting server action. Without it, Next uses the request's Host header,
 * so a forged Host would make the server fetch from any address (`next start` sets this; a custom server must).
 */
function internalOrigin(config: Config): string {
  const host = config.host === "0.0.0.0" || config.host === "::" ? "127.0.0.1" : config.host;
  return `http://${host.includes(":") ? `[${host}]` : host}:${config.port}`;
}

export async function start(rootDir: string, log: (line: string) => void = console.log): Promise<http.Server> {
  const basePath = builtBasePath(rootDir);
  process.env.FAULTLINE_BASE_PATH = basePath;
  const config = loadConfig();
  // Migrate on a connection of our own: the application code runs inside Next's bundle, which opens its own
  // services; sharing objects across the two bundles would mix two copies of every class.
  const db = openDb(dbOptionsFromConfig(config));
  try {
    const applied = await migrateToLatest(db);
    if (applied.length > 0) log(`faultline: applied migrations ${applied.join(", ")}`);
  } finally {
    await db.close();
  }

  process.env.__NEXT_PRIVATE_ORIGIN = internalOrigin(config);
  const app = next({ dev: false, dir: rootDir, hostname: config.host, port: config.port });
  await app.prepare();
  const handle = app.getRequestHandler();

  const refuse = (res: http.ServerResponse, status: number, detail: string) =>
    res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify({ detail }));
  const server = http.createServer(async (req, res) => {
    dropUntrustedForwarding(req, config);
    const crossOrigin = crossOriginActionRefusal(req);
    if (crossOrigin) return refuse(res, 403, crossOrigin);
    let checked: Awaited<ReturnType<typeof checkActionBody>>;
    try {
      checked = await checkActionBody(req);
    } catch {
      return refuse(res, 400, "Could not read the request body");
    }
    if ("refusal" in checked) return refuse(res, checked.refusal.status, checked.refusal.detail);
    req.headers[CLIENT_IP_HEADER] = clientIp(req, config);
    await handle(checked.request, res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(config.port, config.host, () => resolve());
  });
  log(`faultline: listening on http://${config.host}:${config.port}${basePath} (public URL ${config.publicUrl}${basePath}, ${config.databaseUrl ? "postgres" : "sqlite"})`);

  const stop = () => {
    server.close(() => process.exit(0));
    setTimeout(() => process.exit(0), 5000).unref();
  };
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
  return server;
}
