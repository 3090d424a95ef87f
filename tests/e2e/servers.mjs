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

export const SERVERS = {
  main: server("main", 9101, "", ".next"),
  monitor: server("monitor", 9102, "/monitor", ".next-monitor"),
};
