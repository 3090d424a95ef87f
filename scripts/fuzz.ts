// `npm run fuzz`: property-based fuzzing (fast-check) of what reads untrusted input: the envelope parser, content
// decoding, credentials, JSON reading, normalization with grouping, and the issue search parser. One million cases by
// default (FUZZ_CASES), in slices with seeds of their own so that one failure does not end the campaign; every failure
// is printed with its seed, path and counterexample, and the exit code is 1 if there was any. Not part of the test
// command (it takes minutes); the properties are the tests' own, run many times longer.
//   FUZZ_CASES (1000000)  FUZZ_SEED (the first slice's seed; random when unset)  FUZZ_ONLY (a target's name)
import { readFileSync } from "node:fs";
import { Readable } from "node:stream";
import zlib from "node:zlib";
import fc from "fast-check";
import { INGEST_LIMITS, STREAM_LIMITS } from "../src/config/limits";
import { AppError } from "../src/core/errors";
import { parseIssueQuery } from "../src/core/issue-query";
import { groupEvent } from "../src/digest/grouping";
import { normalizeEvent } from "../src/digest/normalize";
import { extractAuth } from "../src/protocol/auth";
import { readBody } from "../src/protocol/content-encoding";
import { parseEnvelope } from "../src/protocol/envelope";
import { ProtocolError } from "../src/protocol/errors";
import { jsonDepthExceeds, parseJsonObjectText } from "../src/protocol/json";
import { mutate, mutations } from "../tests/helpers/mutation";

const TOTAL = Number(process.env.FUZZ_CASES ?? 1_000_000);
const SLICE = 10_000;
let seed = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));

/** Fails unless `fn` returns or throws a ProtocolError. */
function protocolOnly(fn: () => unknown): unknown {
  try {
    return fn();
  } catch (err) {
    if (!(err instanceof ProtocolError)) throw err;
    return err;
  }
}
/** The path of the first string or key holding U+0000, or null. */
function nulAt(value: unknown, path = "$"): string | null {
  if (typeof value === "string") return value.includes("\u0000") ? path : null;
  if (value === null || typeof value !== "object") return null;
  for (const [k, v] of Object.entries(value)) {
    if (k.includes("\u0000")) return `${path} (key ${JSON.stringify(k)})`;
    const found = nulAt(v, `${path}.${k}`);
    if (found) return found;
  }
  return null;
}

function fail(message: string): never {
  throw new Error(message);
}

const fixture = (name: string) => readFileSync(new URL(`../tests/digest/fixtures/normalize/${name}.json`, import.meta.url), "utf8");
const FIXTURES = ["js-browser", "python-nan", "go-bare", "ruby-raven"].map(fixture);
const ENVELOPES = FIXTURES.map((event, i) =>
  Buffer.from(
    `{"event_id":"${String(i).repeat(32)}","sent_at":"2026-01-01T00:00:00Z"}\n{"type":"event","length":${Buffer.byteLength(event)}}\n${event}\n{"type":"session"}\n{"sid":"s","status":"ok","attrs":{"release":"r"}}\n`,
  ),
);
const KEYS = [
  "timestamp",
  "level",
  "platform",
  "release",
  "environment",
  "tags",
  "exception",
  "values",
  "stacktrace",
  "frames",
  "function",
  "filename",
  "module",
  "abs_path",
  "lineno",
  "in_app",
  "user",
  "request",
  "contexts",
  "logentry",
  "message",
  "params",
  "formatted",
  "fingerprint",
  "extra",
  "breadcrumbs",
  "threads",
  "sdk",
  "spans",
  "transaction",
  "type",
  "value",
  "mechanism",
  "sentry.interfaces.Exception",
  "sentry.interfaces.Message",
  "__proto__",
];
/** Strings that make regular expressions and parsers work hard, next to arbitrary ones. */
const nasty = fc.oneof(
  fc.string({ maxLength: 64 }),
  fc.string({ unit: "binary", maxLength: 64 }),
  fc
    .tuple(
      fc.constantFrom("x", "a@", "9", "%(", "%s", "datetime.datetime(", "0x", "::", "[", "\\", "\u0000", "\ud800", "**/", "-", ".", " "),
      fc.integer({ min: 1, max: 3000 }),
    )
    .map(([s, n]) => s.repeat(n)),
);
const leaf = fc.oneof(nasty, fc.double(), fc.integer(), fc.constantFrom(null, true, false, 1e300, -1e300, 2 ** 64, -0));
const eventish: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  node: fc.oneof(
    { depthSize: "small" },
    leaf,
    fc.dictionary(fc.oneof(fc.constantFrom(...KEYS), fc.string({ maxLength: 8 })), tie("node"), { maxKeys: 6 }),
    fc.array(tie("node"), { maxLength: 4 }),
  ),
})).node;
/** A fixture with arbitrary values put at arbitrary keys it has. */
const mutatedEvent = fc
  .tuple(fc.constantFrom(...FIXTURES), fc.array(fc.tuple(fc.constantFrom(...KEYS), eventish), { minLength: 1, maxLength: 5 }))
  .map(([text, edits]) => {
    const doc = JSON.parse(text) as Record<string, unknown>;
    const visit = (node: unknown, [key, value]: [string, unknown]): boolean => {
      if (node && typeof node === "object") {
        for (const [k, v] of Object.entries(node)) {
          if (k === key) {
            (node as Record<string, unknown>)[k] = value;
            return true;
          }
          if (visit(v, [key, value])) return true;
        }
      }
      return false;
    };
    for (const edit of edits) if (!visit(doc, edit)) doc[edit[0]] = edit[1];
    return doc;
  });

type Outcome = { failed: boolean; numRuns: number; counterexample: unknown; counterexamplePath: string | null; errorInstance: unknown };
type Target = { name: string; share: number; check: (numRuns: number, seed: number) => Promise<Outcome> };
/** A target's runs of its property, typed however its arbitraries are. */
const checker =
  <Ts>(property: fc.IRawProperty<Ts>) =>
  async (numRuns: number, seed: number): Promise<Outcome> =>
    await fc.check(property, { numRuns, seed, endOnFailure: true });

const targets: Target[] = [
  {
    name: "envelope parser",
    share: 0.25,
    check: checker(
      fc.property(
        fc.oneof(
          fc.uint8Array({ maxLength: 2048 }),
          fc.tuple(fc.constantFrom(...ENVELOPES), mutations).map(([e, m]) => mutate(e, m)),
        ),
        (bytes) => {
          const out = protocolOnly(() => parseEnvelope(bytes));
          if (out && !(out instanceof ProtocolError) && (out as ReturnType<typeof parseEnvelope>).items.length > INGEST_LIMITS.maxItemsPerEnvelope)
            fail("more items than the cap");
        },
      ),
    ),
  },
  {
    name: "content decoding",
    share: 0.1,
    check: checker(
      fc.asyncProperty(
        fc.constantFrom("gzip", "deflate", "br", "identity", "zstd"),
        fc.oneof(
          fc.uint8Array({ maxLength: 1024 }),
          fc.tuple(fc.constantFrom(...ENVELOPES), mutations).map(([e, m]) => mutate(zlib.gzipSync(e), m)),
        ),
        fc.integer({ min: 1, max: 600 }),
        async (encoding, body, slice) => {
          const chunks = [];
          for (let i = 0; i < body.length; i += slice) chunks.push(Buffer.from(body.subarray(i, i + slice)));
          try {
            const out = await readBody(Readable.from(chunks), encoding, { maxCompressedBytes: 64 * 1024, maxDecompressedBytes: 256 * 1024 });
            if (out.length > 256 * 1024) fail("decoded past the limit");
          } catch (err) {
            if (!(err instanceof ProtocolError)) throw err;
          }
        },
      ),
    ),
  },
  {
    name: "credentials",
    share: 0.05,
    check: checker(
      fc.property(
        fc.dictionary(fc.constantFrom("x-sentry-auth", "authorization", "other"), nasty, { maxKeys: 3 }),
        nasty,
        fc.option(nasty),
        (headers, query, dsn) => {
          protocolOnly(() => extractAuth({ headers, query: new URLSearchParams(query), envelopeDsn: dsn }));
        },
      ),
    ),
  },
  {
    name: "JSON reading",
    share: 0.1,
    check: checker(
      fc.property(
        fc.oneof(
          fc.json({ maxDepth: 6 }),
          nasty,
          fc.integer({ min: 1, max: 400 }).map((n) => "[".repeat(n) + "]".repeat(n)),
        ),
        (text) => {
          const out = protocolOnly(() => parseJsonObjectText(text));
          if (!(out instanceof ProtocolError) && jsonDepthExceeds(text, INGEST_LIMITS.maxJsonDepth)) fail("parsed past the depth limit");
        },
      ),
    ),
  },
  {
    name: "normalization and grouping",
    share: 0.3,
    check: checker(
      fc.property(fc.oneof(mutatedEvent, eventish), fc.constantFrom("event", "transaction", "feedback", "security"), (generated, itemType) => {
        // As the digest gets every payload: from JSON.parse, so "__proto__" is an own key, never a prototype.
        const input: unknown = JSON.parse(JSON.stringify(generated) ?? "null");
        const { event } = normalizeEvent(input, {
          receivedAt: 1_767_225_600_000,
          eventId: "52df9022835246eeb317dbd739ccd059",
          clientIp: "203.0.113.7",
          itemType,
          ownsInput: true,
        });
        const nul = nulAt(event);
        if (nul !== null) fail(`a NUL character left in the event, at ${nul}`);
        const grouped = groupEvent(event);
        if (!grouped.hashes.every((h) => /^[0-9a-f]{32}$/.test(h))) fail(`a hash that is not 32 hex digits: ${grouped.hashes.join(",")}`);
      }),
    ),
  },
  {
    name: "search parser",
    share: 0.2,
    check: checker(
      fc.property(
        fc.oneof(
          nasty,
          fc
            .array(fc.oneof(fc.constantFrom("is:", "level:", "assigned:", "release:", "tags[", "]:", '"', "!", "[", ",", " ", "me", "none", "#", ":"), nasty), {
              maxLength: 40,
            })
            .map((a) => a.join("")),
        ),
        (query) => {
          try {
            parseIssueQuery(query);
          } catch (err) {
            if (!(err instanceof AppError) || err.code !== "bad_request") throw err;
            if (query.length <= STREAM_LIMITS.maxQueryLength && /longer than/.test(err.message)) fail("a short search refused as too long");
          }
        },
      ),
    ),
  },
];

async function main(): Promise<void> {
  const only = process.env.FUZZ_ONLY;
  const chosen = only ? targets.filter((t) => t.name === only) : targets;
  if (chosen.length === 0) throw new Error(`no fuzz target named "${only}"; targets: ${targets.map((t) => t.name).join(", ")}`);
  const shares = chosen.reduce((n, t) => n + t.share, 0);
  let total = 0;
  const failures: string[] = [];
  console.log(`fuzzing ${TOTAL.toLocaleString("en-US")} cases, first seed ${seed}`);
  for (const target of chosen) {
    const runs = Math.round((TOTAL * target.share) / shares);
    const started = performance.now();
    let done = 0;
    let failed = 0;
    while (done < runs) {
      const numRuns = Math.min(SLICE, runs - done);
      const details = await target.check(numRuns, seed);
      done += details.numRuns;
      if (details.failed) {
        failed++;
        failures.push(
          `${target.name}: seed ${seed}, path ${details.counterexamplePath}\n  counterexample: ${fc.stringify(details.counterexample).slice(0, 500)}\n  ${String(details.errorInstance).split("\n")[0]}`,
        );
      }
      seed = (seed + 1) | 0;
    }
    total += done;
    console.log(`${target.name}: ${done.toLocaleString("en-US")} cases in ${((performance.now() - started) / 1000).toFixed(1)} s, ${failed} failing slice(s)`);
  }
  console.log(`\n${total.toLocaleString("en-US")} cases in all; ${failures.length} failure(s)`);
  for (const f of failures) console.log(`\nFAILURE ${f}`);
  process.exitCode = failures.length > 0 ? 1 : 0;
}

await main();
