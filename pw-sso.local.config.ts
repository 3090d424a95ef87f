import base from "/work/wt-oidc/playwright.config";
import { defineConfig } from "@playwright/test";
const ws = (base.webServer as { command: string }[]).filter((w) => !w.command.includes("serve.mjs monitor") && !w.command.includes("serve.mjs main"));
export default defineConfig({ ...base, testDir: "/work/wt-oidc/tests/e2e", webServer: ws as never, projects: (base.projects ?? []).filter((p) => p.name === "sso") });
