// `npm run bench:prepare`: the CPU the digest spends preparing records (digest/items.ts digestRows: parsing,
// normalization, data scrubbing with the shipped defaults, grouping, and the compression of each event's JSON, as
// digest/prepare.ts runs them), per record of bench:ingest's mix, without a database. With BENCH_AGAINST (another
// checkout of Faultline, with its node_modules), that checkout's code prepares the same records in the same process,
// round by round in turn with this one's, and the ratio of their CPU per record is printed round by round: on this
// shared machine, two builds measured in one process and alternated are steadier than two replays of bench:digest
// (whose worker also writes the database, so it shows the whole digest; this shows the part that is JavaScript).
// Records: the mix's kinds that come as one spool record per item, by their weights (lib/mix.mjs); left out are the
// streamed span containers and the screenshots (the intake splits and stages them) and the check-ins.
// Runs from source: node --import tsx bench/prepare.mjs
// Settings (env or --flag=value): BENCH_AGAINST (a checkout), BENCH_RECORDS (records per round, 400), BENCH_ROUNDS
// (20, after 5 to warm up), BENCH_JSON (path for the figures).
import { writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { KINDS, prng } from "./lib/mix.mjs";
import { EID, SID, pythonError } from "./lib/payloads.mjs";
import { opt } from "./lib/options.mjs";

const RECORDS = Number(opt("RECORDS", 400));
const ROUNDS = Number(opt("ROUNDS", 20));
const WARMUP = 5;
const against = opt("AGAINST", "") ? path.resolve(String(opt("AGAINST", ""))) : "";
const fmt = (n, d = 0) => n.toLocaleString("en-US", { minimumFractionDigits: d, maximumFractionDigits: d });
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const LEFT_OUT = new Set(["js-spans", "js-error-screenshot", "node-check-in"]);

/** One checkout's preparing code: its digestRows, its default scrubbers and its event codec. */
async function buildOf(root) {
  const load = (file) => import(pathToFileURL(path.join(root, file)).href);
  const [{ digestRows }, { scrubbersOf }, { encodeEventData }] = await Promise.all([
    load("src/digest/items.ts"),
    load("src/digest/scrubbers.ts"),
    load("src/storage/event-codec.ts"),
  ]);
  // No stored settings: every project gets the scrubbing Faultline ships.
  const scrubbers = await scrubbersOf({ dataScrubbingOfProjects: async () => new Map() }, [1]);
  return { root, digestRows, scrubbers, encodeEventData };
}

/** Spool rows of the mix, drawn by weight with a fixed seed: the same records for every build and every round. */
function mixRows(count) {
  const rng = prng(20261202);
  const kinds = Object.entries(KINDS).filter(([name]) => !LEFT_OUT.has(name));
  const total = kinds.reduce((s, [, k]) => s + k.weight, 0);
  const rows = [];
  const byKind = {};
  const now = Date.now();
  while (rows.length < count) {
    let pick = rng() * total;
    const [name, kind] = kinds.find(([, k]) => (pick -= k.weight) < 0) ?? kinds[0];
    const envelope = kind.sdk === "py-store" ? [{}, [[{ type: "event" }, pythonError(rng, "k", now / 1000)]]] : kind.build(rng, "k", now / 1000);
    const [headers, items] = envelope;
    for (const [itemHeaders, payload] of items) {
      const id = rows.length + 1;
      const eventId = id.toString(16).padStart(32, "0");
      // Fresh ids where the mix writes them per request (event and session ids).
      const text = JSON.stringify(payload)
        .replaceAll(EID, eventId)
        .replaceAll(SID, `${eventId.slice(0, 8)}-0000-4000-8000-${eventId.slice(20)}`);
      rows.push({
        kind: "item",
        id,
        projectId: 1,
        keyId: 1,
        receivedAt: now,
        itemType: itemHeaders.type,
        eventId,
        headers: JSON.stringify(itemHeaders),
        meta: JSON.stringify({ client_ip: "203.0.113.9", ...(headers.sdk ? { sdk: headers.sdk } : {}) }),
        payload: Buffer.from(text),
      });
      byKind[name] = (byKind[name] ?? 0) + 1;
    }
  }
  return { rows, byKind };
}

/** CPU µs per record for one round of `build` over `rows`, as digest/prepare.ts prepares a batch. */
async function round(build, rows) {
  const copies = rows.map((r) => ({ ...r }));
  const start = process.cpuUsage();
  const out = await build.digestRows(copies, undefined, null, undefined, build.scrubbers);
  for (const e of out.events) e.encoded = build.encodeEventData(e.data);
  const used = process.cpuUsage(start);
  if (out.failed.length > 0) throw new Error(`${build.root}: ${out.failed.length} records failed: ${JSON.stringify(out.failed[0]).slice(0, 300)}`);
  return (used.user + used.system) / rows.length;
}

const { rows, byKind } = mixRows(RECORDS);
const self = await buildOf(path.resolve(path.dirname(fileURLToPath(import.meta.url)), ".."));
const baseline = against ? await buildOf(against) : null;
console.log(
  `bench:prepare: ${rows.length} records per round (${Object.entries(byKind)
    .map(([k, n]) => `${k} ${n}`)
    .join(", ")}), ${ROUNDS} rounds`,
);
for (let i = 0; i < WARMUP; i++) {
  if (baseline) await round(baseline, rows);
  await round(self, rows);
}
const mine = [];
const theirs = [];
const ratios = [];
for (let i = 0; i < ROUNDS; i++) {
  // Alternated, and each pair in the other order the next time, so that neither build always runs second.
  const order = i % 2 === 0 ? [baseline, self] : [self, baseline];
  const got = new Map();
  for (const build of order) if (build) got.set(build, await round(build, rows));
  mine.push(got.get(self));
  if (baseline) {
    theirs.push(got.get(baseline));
    ratios.push(got.get(self) / got.get(baseline));
  }
}
const line = (label, xs) => `${label}: ${fmt(median(xs))} CPU µs per record (${fmt(Math.min(...xs))}–${fmt(Math.max(...xs))})`;
console.log(line("this checkout", mine));
if (baseline) {
  console.log(line(`baseline ${against}`, theirs));
  console.log(
    `CPU per record, this ÷ baseline, round by round: median ${fmt(median(ratios), 3)} (${fmt(Math.min(...ratios), 3)}–${fmt(Math.max(...ratios), 3)})`,
  );
}
if (opt("JSON", ""))
  writeFileSync(String(opt("JSON", "")), JSON.stringify({ records: rows.length, byKind, rounds: ROUNDS, this: mine, baseline: theirs, ratios }, null, 2));
