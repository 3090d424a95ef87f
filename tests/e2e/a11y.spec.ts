// Accessibility: axe-core finds no serious or critical violation on any dashboard screen, in the light and the dark
// palette (the setup page is checked by setup.spec.ts, the only time it shows). Each screen's screenshots go to
// test-results/screens/a11y-<screen>-<light|dark>.png. Every screen also loads, hydrates and draws its charts with no
// Content-Security-Policy violation (hostile input #14).
import { expect, test } from "@playwright/test";
import { seriousViolations } from "./axe";
import { OWNER_STATE, ownerApiToken, watchCsp } from "./helpers";
import { createProject, expectJson, mainApi, type TestProject, waitForEvent } from "./ingest-helpers";
import { SERVERS } from "./servers";

type Fixtures = {
  org: string;
  project: string;
  emptyProject: string;
  issue: string;
  event: string;
  release: string;
  trace: string;
  invite: string;
  feedback: string;
};

type Screen = {
  name: string;
  /** A path below the server's URL; {org}, {project}, … are filled from the fixtures. */
  path: string;
  /** The status the page answers with (200 unless said). */
  status?: number;
  signedOut?: boolean;
};

const SCREENS: Screen[] = [
  { name: "sign-in", path: "/en/sign-in", signedOut: true },
  { name: "sign-in-de", path: "/de/sign-in", signedOut: true },
  { name: "orgs", path: "/en/orgs" },
  { name: "org", path: "/en/orgs/{org}" },
  { name: "project-setup", path: "/en/orgs/{org}/projects/{emptyProject}" },
  { name: "project-settings-general", path: "/en/orgs/{org}/projects/{project}/settings" },
  { name: "project-settings-keys", path: "/en/orgs/{org}/projects/{project}/settings/keys" },
  { name: "project-settings-stats", path: "/en/orgs/{org}/projects/{project}/settings/stats" },
  { name: "project-alerts", path: "/en/orgs/{org}/projects/{project}/alerts" },
  { name: "project-alert-rule-new", path: "/en/orgs/{org}/projects/{project}/alerts/new" },
  { name: "project-alert-rule-new-de", path: "/de/orgs/{org}/projects/{project}/alerts/new" },
  { name: "org-settings-general", path: "/en/orgs/{org}/settings" },
  { name: "org-settings-members", path: "/en/orgs/{org}/settings/members" },
  { name: "org-settings-teams", path: "/en/orgs/{org}/settings/teams" },
  { name: "org-settings-tokens", path: "/en/orgs/{org}/settings/tokens" },
  { name: "account-password", path: "/en/account" },
  { name: "account-tokens", path: "/en/account/tokens" },
  { name: "account-sessions", path: "/en/account/sessions" },
  { name: "instance-users", path: "/en/instance/users" },
  { name: "instance-mail", path: "/en/instance/mail" },
  { name: "instance-disk", path: "/en/instance/disk" },
  { name: "instance-sso", path: "/en/instance/sso" },
  { name: "sign-in-sso-link", path: "/en/sign-in/sso?error=account_not_linked", signedOut: true },
  { name: "sign-in-sso-error-de", path: "/de/sign-in/sso?error=state_mismatch", signedOut: true },
  { name: "forgot-password", path: "/en/forgot-password", signedOut: true },
  { name: "forgot-password-de", path: "/de/forgot-password", signedOut: true },
  { name: "reset-password", path: "/en/reset-password?token=abcdefghijklmnopqrstuvwx", signedOut: true },
  { name: "invite", path: "/en/invite/{invite}", signedOut: true },
  { name: "docs", path: "/en/docs" },
  { name: "docs-guide", path: "/en/docs/javascript" },
  { name: "docs-api", path: "/en/docs/api" },
  { name: "not-found", path: "/en/orgs/{org}/no/such/page", status: 404 },
  { name: "not-found-section", path: "/de/orgs/{org}/settings/no-such-section", status: 404 },
  { name: "not-found-docs", path: "/en/docs/no-such-guide", status: 404 },
  { name: "issue-stream", path: "/en/orgs/{org}/issues?project={project}" },
  { name: "issue-stream-empty", path: "/en/orgs/{org}/issues?project={emptyProject}" },
  { name: "issue-stream-de", path: "/de/orgs/{org}/issues?project={project}" },
  { name: "issue-detail", path: "/en/orgs/{org}/issues/{issue}" },
  { name: "issue-event", path: "/en/orgs/{org}/issues/{issue}/events/{event}" },
  { name: "releases", path: "/en/orgs/{org}/releases?project={project}" },
  { name: "release-detail", path: "/en/orgs/{org}/releases/{release}" },
  { name: "performance", path: "/en/orgs/{org}/projects/{project}/performance" },
  { name: "performance-transaction", path: "/en/orgs/{org}/projects/{project}/performance?transaction=%2Fcheckout" },
  { name: "performance-empty", path: "/de/orgs/{org}/projects/{emptyProject}/performance" },
  { name: "performance-web-vitals", path: "/en/orgs/{org}/projects/{project}/performance/web-vitals" },
  { name: "trace", path: "/en/orgs/{org}/traces/{trace}" },
  { name: "diagnostics", path: "/en/diagnostics" },
  { name: "monitors", path: "/en/orgs/{org}/monitors" },
  { name: "monitor-new-de", path: "/de/orgs/{org}/monitors/new" },
  { name: "feedback-inbox", path: "/en/orgs/{org}/feedback?status=all" },
  { name: "feedback-inbox-de", path: "/de/orgs/{org}/feedback" },
  { name: "feedback", path: "/en/orgs/{org}/feedback/{feedback}" },
  { name: "logs", path: "/en/orgs/{org}/projects/{project}/logs" },
  { name: "logs-de", path: "/de/orgs/{org}/projects/{project}/logs?level=error" },
  { name: "logs-empty", path: "/en/orgs/{org}/projects/{emptyProject}/logs" },
];

let fixtures: Fixtures;
const fill = (path: string) => path.replace(/\{(\w+)\}/g, (_, key: keyof Fixtures) => encodeURIComponent(fixtures[key]));

/** One error with a release, sent to the project's intake as an SDK would; returns its event id. */
async function sendError(project: TestProject, release: string): Promise<string> {
  const eventId = crypto.randomUUID().replaceAll("-", "");
  const event = {
    event_id: eventId,
    platform: "node",
    level: "error",
    release,
    environment: "production",
    timestamp: Date.now() / 1000,
    exception: {
      values: [
        {
          type: "TypeError",
          value: "Cannot read properties of undefined (reading 'total')",
          stacktrace: {
            frames: [
              // A bundle frame whose source map was never uploaded: the issue page shows its processing note.
              {
                filename: "https://cdn.example.com/static/vendor.3c1d.js",
                function: "dispatch",
                lineno: 1,
                colno: 1200,
                platform: "javascript",
                in_app: false,
              },
              {
                filename: "app/cart.js",
                function: "checkout",
                lineno: 42,
                colno: 7,
                in_app: true,
                context_line: "  return cart.total;",
                pre_context: ["function checkout(cart) {"],
                post_context: ["}"],
              },
            ],
          },
        },
      ],
    },
    user: { id: "42", email: "ada@example.com" },
    tags: { browser: "Chrome 120" },
  };
  const url = new URL(project.dsn);
  const r = await fetch(`${url.protocol}//${url.host}${SERVERS.main.basePath}/api/${project.id}/envelope/?sentry_key=${project.publicKey}&sentry_version=7`, {
    method: "POST",
    body: `{"event_id":"${eventId}"}\n{"type":"event"}\n${JSON.stringify(event)}\n`,
  });
  expect(r.status).toBe(200);
  return eventId;
}

/** A page load transaction with a child span and web vitals, in a trace of its own; returns the trace id. */
async function sendTransaction(project: TestProject): Promise<string> {
  const eventId = crypto.randomUUID().replaceAll("-", "");
  const traceId = crypto.randomUUID().replaceAll("-", "");
  const now = Date.now() / 1000;
  const event = {
    event_id: eventId,
    type: "transaction",
    platform: "javascript",
    transaction: "/checkout",
    start_timestamp: now - 1.2,
    timestamp: now,
    contexts: { trace: { trace_id: traceId, span_id: "1234567890abcdef", op: "pageload", status: "ok" } },
    spans: [
      {
        span_id: "abcdef1234567890",
        parent_span_id: "1234567890abcdef",
        trace_id: traceId,
        op: "resource.script",
        description: "/app.js",
        start_timestamp: now - 1,
        timestamp: now - 0.6,
      },
    ],
    measurements: {
      lcp: { value: 2900, unit: "millisecond" },
      fcp: { value: 900, unit: "millisecond" },
      cls: { value: 0.3 },
      ttfb: { value: 120, unit: "millisecond" },
    },
  };
  const url = new URL(project.dsn);
  const r = await fetch(`${url.protocol}//${url.host}${SERVERS.main.basePath}/api/${project.id}/envelope/?sentry_key=${project.publicKey}&sentry_version=7`, {
    method: "POST",
    body: `{"event_id":"${eventId}"}\n{"type":"transaction"}\n${JSON.stringify(event)}\n`,
  });
  expect(r.status).toBe(200);
  return traceId;
}

test.describe("accessibility", () => {
  test.use({ storageState: OWNER_STATE });

  test.beforeAll(async ({ request }) => {
    const api = mainApi(request);
    const project = await createProject(api, { platform: "node", org: "acme" });
    const empty = await createProject(api, { platform: "javascript", org: "acme", team: project.team });
    const release = "a11y@1.0.0";
    const stored = await waitForEvent(api, project, await sendError(project, release));
    expect(stored.groupID).toBeTruthy();
    const trace = await sendTransaction(project);
    // Log lines of the trace (issue 19), for the logs page and the trace page's logs.
    const logs = {
      items: ["info", "warn", "error"].map((level, i) => ({
        timestamp: Date.now() / 1000 - i,
        trace_id: trace,
        level,
        body: `Checkout step ${i} (${level})`,
        attributes: { step: { type: "integer", value: i }, "user.email": { type: "string", value: "ada@example.com" } },
      })),
    };
    const sent = await fetch(`${SERVERS.main.origin}/api/${project.id}/envelope/?sentry_key=${project.publicKey}&sentry_version=7`, {
      method: "POST",
      body: `{}\n{"type":"log","item_count":3}\n${JSON.stringify(logs)}\n`,
    });
    expect(sent.status).toBe(200);
    await expect.poll(async () => ((await (await api.get(`/projects/acme/${project.slug}/logs/`)).json()) as unknown[]).length, { timeout: 20_000 }).toBe(3);
    fixtures = {
      org: "acme",
      project: project.slug,
      emptyProject: empty.slug,
      issue: String(stored.groupID),
      event: stored.eventID,
      release,
      trace,
      invite: "",
      feedback: "",
    };
    // A user report about the error (issue 19), for the feedback inbox and its page.
    const report = await request.post(`${SERVERS.main.url}/api/0/projects/acme/${project.slug}/user-feedback/`, {
      headers: { authorization: `DSN ${project.dsn}` },
      data: { event_id: stored.eventID, name: "Ada", email: "ada@example.com", comments: "The total is missing after checkout." },
    });
    fixtures.feedback = (await expectJson<{ id: string }>(report, 200, "a user report")).id;
    await expectJson(await api.get(`/organizations/acme/releases/${encodeURIComponent(release)}/`), 200, "the release the event named");
    // A release file, so that the release page's source files table is checked too.
    const upload = await request.post(`${SERVERS.main.url}/api/0/organizations/acme/releases/${encodeURIComponent(release)}/files/`, {
      headers: { authorization: `Bearer ${ownerApiToken()}` },
      multipart: {
        file: { name: "app.min.js", mimeType: "application/javascript", buffer: Buffer.from("console.log(1)") },
        name: "~/static/app.min.js",
        header: "Sourcemap:app.min.js.map",
      },
    });
    await expectJson(upload, 201, "a release file");
  });

  test.beforeAll(async ({ browser }) => {
    // The transaction is digested behind the intake: its trace page answers once it is stored.
    const context = await browser.newContext({ storageState: OWNER_STATE });
    const page = await context.newPage();
    try {
      await expect.poll(async () => (await page.goto(`.${fill("/en/orgs/{org}/traces/{trace}")}`))?.status(), { timeout: 15_000 }).toBe(200);
      // An invitation, for the page its link opens (signed out).
      await page.goto(`.${fill("/en/orgs/{org}/settings/members")}`);
      const form = page.getByTestId("create-invite-form");
      await form.getByLabel("E-mail").fill(`a11y-${Date.now()}@example.com`);
      await form.getByRole("button", { name: "Invite" }).click();
      fixtures.invite = (await form.getByTestId("result-link").innerText()).trim().split("/").pop()!;
    } finally {
      await context.close();
    }
  });

  test("the check itself: an unlabelled field on a page without a title is reported", async ({ page }) => {
    await page.setContent(`<html lang="en"><body><main><input type="text"></main></body></html>`);
    const found = (await seriousViolations(page, "a11y-check-itself")).join("\n");
    expect(found).toContain("document-title");
    expect(found).toMatch(/label/);
  });

  for (const screen of SCREENS) {
    test(`${screen.name}: no serious or critical violation (light and dark), and no CSP violation`, async ({ page, browser }) => {
      const context = screen.signedOut ? await browser.newContext({ storageState: { cookies: [], origins: [] } }) : null;
      const p = context ? await context.newPage() : page;
      const violations = await watchCsp(p);
      try {
        const response = await p.goto(`.${fill(screen.path)}`);
        const status = response?.status();
        expect(status, `${screen.path} answered ${status}`).toBe(screen.status ?? 200);
        // Not "networkidle": the issue stream keeps its live-update connection open. Charts are checked once drawn.
        await p.waitForLoadState("load");
        await expect(p.locator(".chart-canvas:not([data-ready])")).toHaveCount(0);
        const found = await seriousViolations(p, `a11y-${screen.name}`);
        expect(found, `axe-core found serious or critical violations:\n\n${found.join("\n\n")}`).toEqual([]);
        // React has hydrated (it marks the nodes it owns), so every script the page needs has run.
        await expect
          .poll(() =>
            p.evaluate(() =>
              [document.body, document.getElementById("__next")].some((el) => el !== null && Object.keys(el).some((k) => k.startsWith("__react"))),
            ),
          )
          .toBe(true);
        expect(violations(), `CSP violations on ${screen.path}`).toEqual([]);
      } finally {
        await context?.close();
      }
    });
  }
});
