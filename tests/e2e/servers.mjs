// Shared by playwright.config.ts (through servers.ts) and serve.mjs.
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const server = (name, port, basePath, distDir) => ({
  name,
  port,
  basePath,
  distDir,
  dataDir: path.join(root, "test-results", `data-${name}`),
  // "localhost", as in the default FAULTLINE_URL: Next writes loopback hosts as "localhost" in redirects.
  origin: `http://localhost:${port}`,
  url: `http://localhost:${port}${basePath}`,
});

// FAULTLINE_E2E_PORT_BASE moves both servers (default 9100), so two checkouts can run their browser tests at once.
const base = Number(process.env.FAULTLINE_E2E_PORT_BASE ?? 9100);

export const SERVERS = {
  main: server("main", base + 1, "", ".next"),
  monitor: server("monitor", base + 2, "/monitor", ".next-monitor"),
};
