// Faultline's own pages report no secret of their URLs (issue 18): the reset token, an invitation's secret and a
// searched person's address are redacted from every URL of an event or page-load transaction before it is sent.
import assert from "node:assert/strict";
import { test } from "node:test";
import { redactEventUrls, redactUrl } from "../../src/web/self-monitoring/redact-urls";

test("URLs lose their query and fragment, and an invitation's secret", () => {
  assert.equal(redactUrl("https://fl.example/en/reset-password?token=abc123#x"), "https://fl.example/en/reset-password");
  assert.equal(redactUrl("/monitor/de/invite/s3cr3t-value/accept"), "/monitor/de/invite/[secret]/accept");
  assert.equal(redactUrl("/en/orgs/acme/settings/privacy?field=email&value=ann%40example.com"), "/en/orgs/acme/settings/privacy");
  assert.equal(redactUrl("/en/orgs/acme/issues"), "/en/orgs/acme/issues", "a URL without secrets is kept");
});

test("every URL of an event and of a page-load transaction is redacted", () => {
  const event = {
    transaction: "/en/invite/s3cr3t",
    request: {
      url: "https://fl.example/en/reset-password?token=abc123",
      query_string: "token=abc123",
      headers: { Referer: "https://fl.example/en/invite/s3cr3t" },
    },
    breadcrumbs: [
      { category: "navigation", data: { from: "/en/invite/s3cr3t", to: "/en/orgs?x=1" } },
      { category: "fetch", data: { url: "/en/orgs/acme/settings/privacy?value=ann@example.com", "http.query": "value=ann@example.com" } },
    ],
    spans: [{ description: "GET /en/reset-password?token=abc123", data: { url: "/en/reset-password?token=abc123" } }],
    contexts: { trace: { data: { url: "https://fl.example/en/invite/s3cr3t?a=1" } } },
  };
  const text = JSON.stringify(redactEventUrls(event));
  for (const secret of ["abc123", "s3cr3t", "ann@example.com", "x=1"]) assert.ok(!text.includes(secret), `${secret} is gone: ${text}`);
  assert.equal(event.request.url, "https://fl.example/en/reset-password");
  assert.equal(event.transaction, "/en/invite/[secret]");
  assert.equal(event.breadcrumbs[0]!.data.to, "/en/orgs");
});
