// `npm run bench:scrub`: the cost of data scrubbing (issue 18, src/scrub) per event, as the digest runs it after
// normalization: a ~5 KB browser error (lib/browser-error.mjs) and a ~20 KB Python error with context lines and
// local variables in every frame, each with Sentry's default settings and with 20 advanced rules (relayPiiConfig)
// on top. Three measured runs after a warm-up, each over fresh copies (parsed, then a full GC, before the clock
// starts); prints CPU µs per event per run (process.cpuUsage: steady on a shared machine, where wall time is not),
// the median, the spread (max − min over the median) and the wall-clock median beside it.
// Targets: ≤ 30 µs per browser error and ≤ 150 µs per Python error. Runs from source: node --import tsx bench/scrub.mjs
// Settings (env or --flag=value): BENCH_BROWSER (events per run, 2000), BENCH_PYTHON (500), BENCH_RUNS (3), BENCH_JSON (path for the figures).
import { writeFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import v8 from "node:v8";
import vm from "node:vm";
import { normalizeEvent } from "../src/digest/normalize/index.ts";
import { DEFAULT_SCRUBBING_OPTIONS, effectiveScrubbing } from "../src/scrub/index.ts";
import { browserErrorEvent } from "./lib/browser-error.mjs";
import { prng } from "./lib/mix.mjs";
import { pythonError } from "./lib/payloads.mjs";
import { opt } from "./lib/options.mjs";

const COUNTS = { browser: Number(opt("BROWSER", 2000)), python: Number(opt("PYTHON", 500)) };
const RUNS = Number(opt("RUNS", 3));
const TARGETS = { browser: 30, python: 150 };
const fmt = (n, d = 1) => n.toLocaleString("en-US", { minimumFractionDigits: d, maximumFractionDigits: d });
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const WORDS = ["order", "cart", "user", "item", "price", "total", "session", "payment", "invoice", "coupon"];
const LINES = [
  "    def get_queryset(self):",
  "        qs = super().get_queryset()",
  "        user = self.request.user",
  "        if not user.is_authenticated:",
  "            raise PermissionDenied()",
  "        return qs.filter(owner=user)",
  "    @transaction.atomic",
  "    def perform_create(self, serializer):",
];

/** A sentry-python error as Django sends it with include_local_variables and context lines: ~20 KB. */
function bigPythonError(rng, t) {
  const event = pythonError(rng, "k", t);
  const frames = event.exception.values[0].stacktrace.frames;
  while (frames.length < 16) frames.unshift({ ...frames[frames.length - 1] });
  event.exception.values[0].stacktrace.frames = frames.map((f, i) => ({
    ...f,
    abs_path: `/srv/shop/venv/lib/python3.11/site-packages/django/${WORDS[i % 10]}/views.py`,
    pre_context: LINES.slice(0, 5),
    context_line: LINES[5],
    post_context: LINES.slice(3, 8),
    vars: {
      self: `<shop.views.${WORDS[i % 10]}View object at 0x7f${Math.floor(rng() * 1e10).toString(16)}>`,
      request: "<WSGIRequest: POST '/api/orders/'>",
      args: "()",
      kwargs: { pk: String(Math.floor(rng() * 1e6)) },
      queryset: `<QuerySet [<Order: Order object (${Math.floor(rng() * 1e4)})>, <Order: Order object (${Math.floor(rng() * 1e4)})>]>`,
      user: { id: Math.floor(rng() * 1e6), email: `user${Math.floor(rng() * 1e4)}@example.com`, is_staff: false },
      password: i === 3 ? "hunter2" : undefined,
      data: { amount: "19.90", currency: "EUR", note: `deliver to ${WORDS[i % 10]} street ${i}`, card: i === 5 ? "4111 1111 1111 1111" : "n/a" },
    },
  }));
  event.request.headers.Authorization = "Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.abc";
  event.request.headers.Cookie = "sessionid=abc123; csrftoken=xyz";
  event.user = { id: "42", email: "jane@example.com", ip_address: "203.0.113.7" };
  return event;
}

/** 20 advanced rules, of every kind, on the selectors people write. */
const ADVANCED = JSON.stringify({
  rules: {
    device: { type: "pattern", pattern: "d/[a-f0-9]{12}", redaction: { method: "replace", text: "[device]" } },
    order: { type: "pattern", pattern: "ORD-[0-9]{6,}", redaction: { method: "hash" } },
    iban_like: { type: "pattern", pattern: "\\b[A-Z]{2}[0-9]{2}[A-Z0-9]{12,30}\\b", redaction: { method: "mask" } },
    phone: { type: "pattern", pattern: "\\+?[0-9][0-9 ()-]{7,}[0-9]", redaction: { method: "replace", text: "[phone]" } },
    jwt: { type: "pattern", pattern: "eyJ[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+", redaction: { method: "remove" } },
    street: { type: "pattern", pattern: "(?i)(street|road|avenue) [0-9]+", replaceGroups: [0], redaction: { method: "replace", text: "[address]" } },
    tenant: { type: "redact_pair", keyPattern: "(?i)tenant|customer_id", redaction: { method: "replace", text: "[tenant]" } },
    secrets: { type: "multiple", rules: ["@password", "@urlauth", "@pemkey"], hideInner: true },
    contact: { type: "alias", rule: "@email:hash" },
    ssn: { type: "us_ssn", redaction: { method: "mask" } },
    macs: { type: "mac", redaction: { method: "hash" } },
    uuids: { type: "uuid", redaction: { method: "remove" } },
    imeis: { type: "imei" },
    cards: { type: "creditcard", redaction: { method: "mask" } },
    ips: { type: "ip", redaction: { method: "hash" } },
    paths: { type: "userpath" },
    anything: { type: "anything", redaction: { method: "remove" } },
    bearer: { type: "bearer", redaction: { method: "replace", text: "[bearer]" } },
    ibans: { type: "iban", redaction: { method: "replace", text: "[iban]" } },
    emails: { type: "email", redaction: { method: "mask" } },
  },
  applications: {
    $string: ["device", "order", "phone", "jwt", "street", "ssn", "contact", "cards", "ibans"],
    "$frame.vars.**": ["secrets", "tenant", "uuids"],
    "$http.headers.x-api-key || $http.headers.x-session": ["anything"],
    "$user.ip_address": ["ips"],
    "$user.email": ["emails"],
    "extra.'sys.argv'.**": ["paths"],
    "$breadcrumb.data.** && !$breadcrumb.data.url": ["macs", "imeis", "iban_like"],
    "$http.headers.authorization": ["bearer"],
  },
});

function corpus(kind, n) {
  const rng = prng(kind === "browser" ? 1801 : 1802);
  const t0 = Date.now() / 1000;
  const texts = [];
  for (let i = 0; i < Math.min(n, 64); i++) {
    const raw = kind === "browser" ? browserErrorEvent(rng, t0 + i) : bigPythonError(rng, t0 + i);
    const { event } = normalizeEvent(raw, { receivedAt: Date.now(), eventId: "a".repeat(32), clientIp: "203.0.113.9", itemType: "event", ownsInput: true });
    texts.push(JSON.stringify(event));
  }
  return texts;
}

v8.setFlagsFromString("--expose-gc");
const gc = vm.runInNewContext("gc");

/** Strings per event, and the remarks scrubbing leaves on one (what the figures pay for). */
function shape(scrubber, text) {
  const strings = (v) =>
    typeof v === "string" ? 1 : v && typeof v === "object" ? Object.entries(v).reduce((n, [k, c]) => n + (k === "_meta" ? 0 : strings(c)), 0) : 0;
  const remarks = (m) => (m && typeof m === "object" ? Object.entries(m).reduce((n, [k, c]) => n + (k === "" ? (c?.rem?.length ?? 0) : remarks(c)), 0) : 0);
  const event = JSON.parse(text);
  const before = remarks(event._meta);
  scrubber.scrubEvent(event);
  return { strings: strings(JSON.parse(text)), remarks: remarks(event._meta) - before };
}

function measure(scrubber, texts, n) {
  const events = Array.from({ length: n }, (_, i) => JSON.parse(texts[i % texts.length]));
  gc();
  const start = performance.now();
  const cpu = process.cpuUsage();
  for (const e of events) scrubber.scrubEvent(e);
  const used = process.cpuUsage(cpu);
  return { cpu: (used.user + used.system) / n, wall: ((performance.now() - start) * 1000) / n };
}

const D = DEFAULT_SCRUBBING_OPTIONS;
const setups = { defaults: effectiveScrubbing(D, D), "20 advanced rules": effectiveScrubbing(D, { ...D, relayPiiConfig: ADVANCED }) };
const figures = { node: process.version, runs: RUNS, counts: COUNTS, results: [] };
for (const kind of ["browser", "python"]) {
  const texts = corpus(kind, COUNTS[kind]);
  const bytes = Math.round(texts.reduce((s, t) => s + Buffer.byteLength(t), 0) / texts.length);
  for (const [name, scrubber] of Object.entries(setups)) {
    measure(scrubber, texts, COUNTS[kind]); // warm-up: a full run, so that the first measured one is not still compiling
    const measured = Array.from({ length: RUNS }, () => measure(scrubber, texts, COUNTS[kind]));
    const runs = measured.map((m) => m.cpu);
    const med = median(runs);
    const wall = median(measured.map((m) => m.wall));
    const spread = ((Math.max(...runs) - Math.min(...runs)) / med) * 100;
    const ok = med <= TARGETS[kind];
    const { strings, remarks } = shape(scrubber, texts[0]);
    figures.results.push({
      kind,
      setup: name,
      bytes,
      strings,
      remarks,
      cpuMicrosPerRun: runs,
      median: med,
      wallMedian: wall,
      spreadPercent: spread,
      target: TARGETS[kind],
      ok,
    });
    console.log(
      `${kind === "browser" ? "browser error" : "python error "} (${fmt(bytes / 1024)} KB, ${strings} strings, ${remarks} redactions), ${name.padEnd(17)}: ${runs.map((r) => fmt(r)).join(" / ")} CPU µs per event; median ${fmt(med)} µs (wall ${fmt(wall)}), spread ${fmt(spread)} % — target ≤ ${TARGETS[kind]} µs ${ok ? "met" : "MISSED"}`,
    );
  }
}
if (opt("JSON", "")) writeFileSync(opt("JSON", ""), JSON.stringify(figures, null, 2));
