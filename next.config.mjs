// Next.js configuration of Faultline. FAULTLINE_BASE_PATH is read at build time: a build serves everything
// (pages, assets, API, redirects, DSNs) under that prefix.
import { withSentryConfig } from "@sentry/nextjs/config";
import createNextIntlPlugin from "next-intl/plugin";
import { OwnSourceMapsPlugin } from "./scripts/own-sourcemaps-plugin.mjs";

const rawBasePath = (process.env.FAULTLINE_BASE_PATH ?? "").trim().replace(/\/+$/, "");
if (rawBasePath && !/^\/[A-Za-z0-9._~\-/]+$/.test(rawBasePath)) {
  throw new Error(`FAULTLINE_BASE_PATH must start with "/" and contain only URL path characters (got "${rawBasePath}")`);
}

const withNextIntl = createNextIntlPlugin("./src/i18n/request.ts");

/** @type {import('next').NextConfig} */
const nextConfig = {
  basePath: rawBasePath || undefined,
  // Lets one checkout hold two builds side by side (the test run builds with and without a base path).
  distDir: process.env.FAULTLINE_DIST_DIR || ".next",
  env: { FAULTLINE_BASE_PATH: rawBasePath },
  // SDKs and sentry-cli call paths with a trailing slash; answer both spellings instead of redirecting.
  skipTrailingSlashRedirect: true,
  // The test command lints the whole tree once (`npm run lint`: ESLint, Prettier, import circles); a build does not
  // lint again. Type errors fail the build, except in the test command's builds: it typechecks the whole tree itself
  // (`tsc --noEmit`, beside its first suites, and the route types a build generates with tsconfig.next-types.json)
  // and sets FAULTLINE_BUILD_TYPECHECKED, which saves each build its own check (about 25 s of a core).
  eslint: { ignoreDuringBuilds: true },
  typescript: { ignoreBuildErrors: process.env.FAULTLINE_BUILD_TYPECHECKED === "1" },
  poweredByHeader: false,
  // Maps of the browser chunks, for Faultline's own errors: OwnSourceMapsPlugin injects debug ids and moves every map
  // out of the served static folder; `faultline start` stores them for the internal project.
  productionBrowserSourceMaps: true,
  webpack(config, { dev, isServer }) {
    if (!dev && !isServer) config.plugins.push(new OwnSourceMapsPlugin());
    return config;
  },
  reactStrictMode: true,
  experimental: {
    // better-sqlite3 and pg are native or dynamic-require packages: load them from node_modules at run time. The rest
    // (kysely included) is bundled: its hundreds of ES module files took about 150 ms of the first page (bench:start).
    serverComponentsExternalPackages: ["better-sqlite3", "pg"],
  },
  async redirects() {
    return [
      // Links copied from Sentry keep working: permanent (308) mappings to Faultline's pages.
      { source: "/organizations/:org/projects/:project{/}?", destination: "/orgs/:org/projects/:project", permanent: true },
      { source: "/organizations/:org{/}?", destination: "/orgs/:org", permanent: true },
      { source: "/settings/:org/projects/:project/keys{/}?", destination: "/orgs/:org/projects/:project/settings/keys", permanent: true },
      { source: "/settings/account/api/auth-tokens{/}?", destination: "/account/tokens", permanent: true },
      // Sentry's sign-in URL; temporary (307) because where to sign in may change with SSO.
      { source: "/auth/login{/}?", destination: "/sign-in", permanent: false },
    ];
  },
  async rewrites() {
    // Load balancers probe /_health (the path Sentry self-hosted uses); the route handler lives under /api.
    return [{ source: "/_health{/}?", destination: "/api/health" }];
  },
};

// Self-monitoring (src/instrumentation*.ts): @sentry/nextjs injects src/instrumentation-client.ts into every page and
// turns on Next 14's instrumentation hook. Nothing is sent at build time (telemetry), its plugin uploads no source
// map (Faultline keeps its own, above), and Faultline's own server code is not wrapped: server errors are captured where Next computes their digest
// (web/self-monitoring/server.ts). The browser tunnel is Faultline's own route (app/monitoring), not the SDK's
// rewrite, which forwards only to Sentry's hosted DSNs.
export default withSentryConfig(withNextIntl(nextConfig), {
  telemetry: false,
  silent: true,
  sourcemaps: { disable: true },
  release: { create: false, finalize: false },
  webpack: {
    autoInstrumentServerFunctions: false,
    autoInstrumentMiddleware: false,
    autoInstrumentAppDirectory: false,
    treeshake: { removeDebugLogging: true },
  },
});
