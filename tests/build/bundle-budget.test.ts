// The first-load JavaScript budget, on the production build in .next (scripts/test.sh runs this after `npm run build`):
// every app route at most BUILD_LIMITS.firstLoadJsGzipBytes gzipped (the pages router's fallback pages at most
// pagesFallbackJsGzipBytes), and uPlot in no route's first-load chunks.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, test } from "node:test";
import { build } from "esbuild";
import { BUILD_LIMITS, firstLoadBudget } from "../../src/config/limits";
import { containsUplot, firstLoadSizes, firstLoadTable } from "../../scripts/first-load-js";

const distDir = ".next";
const routes = firstLoadSizes(distDir);
const read = (file: string) => readFileSync(path.join(distDir, file), "utf8");

describe("first-load JavaScript budget", () => {
  test("the build lists the dashboard's routes and the docs", () => {
    const names = routes.map((r) => r.route);
    for (const route of [
      "/[locale]/(auth)/sign-in",
      "/[locale]/(app)/orgs/[org]",
      "/[locale]/(app)/orgs/[org]/projects/[project]",
      "/[locale]/docs/[[...slug]]",
    ]) {
      assert.ok(names.includes(route), `${route} is not among the built routes: ${names.join(", ")}`);
    }
    for (const r of routes) assert.ok(r.gzipBytes > 0 && r.files.length > 0, `${r.route} has no JavaScript`);
  });

  test(`every app route loads at most ${BUILD_LIMITS.firstLoadJsGzipBytes / 1000} kB of JavaScript first (gzipped), the pages router's fallback pages ${BUILD_LIMITS.pagesFallbackJsGzipBytes / 1000} kB`, () => {
    assert.ok(routes.some((r) => r.router === "pages") && routes.some((r) => r.router === "app"), "both routers' routes are measured");
    const over = routes.filter((r) => r.gzipBytes > firstLoadBudget(r.router));
    assert.deepEqual(
      over.map((r) => r.route),
      [],
      `over the budget:\n${firstLoadTable(routes)}`,
    );
  });

  test("a page's layouts count towards its first load", () => {
    const org = routes.find((r) => r.route === "/[locale]/(app)/orgs/[org]");
    assert.ok(
      org?.files.some((f) => /app\/\[locale\]\/\(app\)\/layout-/.test(f)),
      "the (app) layout's chunk is not counted",
    );
    assert.ok(
      org?.files.some((f) => /app\/layout-/.test(f)),
      "the root layout's chunk is not counted",
    );
  });

  test("uPlot is in no route's first-load chunks", () => {
    const withUplot = routes.flatMap((r) => r.files.filter((f) => containsUplot(read(f))).map((f) => `${r.route}: ${f}`));
    assert.deepEqual(withUplot, []);
  });

  test("the uPlot check recognizes uPlot once minified", async () => {
    const bundled = await build({ entryPoints: ["node_modules/uplot/dist/uPlot.esm.js"], bundle: true, minify: true, write: false, format: "esm" });
    assert.ok(containsUplot(bundled.outputFiles[0]!.text));
  });

  test("when a page uses the time series chart, the build has uPlot in a chunk loaded later", (t) => {
    const sources = ["src/app", "src/web/components"].flatMap((dir) => readdirSync(dir, { recursive: true, encoding: "utf8" }).map((f) => path.join(dir, f)));
    const charted = sources.filter((f) => /\.tsx?$/.test(f) && !f.includes("/charts/") && readFileSync(f, "utf8").includes("charts/time-series-chart"));
    if (charted.length === 0) return t.skip("no page uses the time series chart");
    const chunks = readdirSync(path.join(distDir, "static/chunks"), { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".js"));
    assert.ok(
      chunks.some((f) => containsUplot(read(path.join("static/chunks", f)))),
      `${charted.join(", ")} use the chart, but no chunk holds uPlot`,
    );
  });
});
