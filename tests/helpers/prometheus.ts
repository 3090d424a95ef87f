// A strict reader of Prometheus' text exposition format (version 0.0.4), for tests: every line is a HELP, a TYPE or a
// sample of a family declared before it; names and labels as the format allows; histograms whole (ascending `le`,
// cumulative counts, +Inf equal to _count). Throws on anything else, so a malformed scrape fails the test.
export type Sample = { name: string; labels: Record<string, string>; value: number };
export type Family = { name: string; type: string; help: string; samples: Sample[] };

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const SUFFIXES: Record<string, string[]> = {
  counter: [""],
  gauge: [""],
  histogram: ["_bucket", "_sum", "_count"],
  summary: ["", "_sum", "_count"],
  untyped: [""],
};

function parseValue(raw: string): number {
  if (raw === "+Inf") return Number.POSITIVE_INFINITY;
  if (raw === "-Inf") return Number.NEGATIVE_INFINITY;
  // Prometheus reads values with Go's ParseFloat, which takes NaN in any case (prom-client writes "Nan").
  if (/^nan$/i.test(raw)) return Number.NaN;
  if (!/^-?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(raw)) throw new Error(`not a sample value: ${raw}`);
  return Number(raw);
}

function parseLabels(raw: string): Record<string, string> {
  const labels: Record<string, string> = {};
  let rest = raw;
  while (rest.length > 0) {
    const m = /^([^=]+)="((?:[^"\\\n]|\\["\\n])*)"(,|$)/.exec(rest);
    if (!m || !LABEL.test(m[1]!)) throw new Error(`bad labels: {${raw}}`);
    if (m[1]! in labels) throw new Error(`label ${m[1]} twice: {${raw}}`);
    labels[m[1]!] = m[2]!.replace(/\\n/g, "\n").replace(/\\(["\\])/g, "$1");
    rest = rest.slice(m[0].length);
  }
  return labels;
}

export function parsePrometheus(text: string): Map<string, Family> {
  const families = new Map<string, Family>();
  if (!text.endsWith("\n")) throw new Error("the exposition must end with a newline");
  for (const line of text.slice(0, -1).split("\n")) {
    if (line === "") continue;
    let m = /^# HELP (\S+) (.*)$/.exec(line);
    if (m) {
      if (!NAME.test(m[1]!)) throw new Error(`bad metric name: ${m[1]}`);
      if (families.has(m[1]!)) throw new Error(`HELP of ${m[1]} after its samples or twice`);
      families.set(m[1]!, { name: m[1]!, type: "", help: m[2]!, samples: [] });
      continue;
    }
    m = /^# TYPE (\S+) (counter|gauge|histogram|summary|untyped)$/.exec(line);
    if (m) {
      const f = families.get(m[1]!);
      if (!f || f.type !== "" || f.samples.length > 0) throw new Error(`TYPE of ${m[1]} out of place`);
      f.type = m[2]!;
      continue;
    }
    if (line.startsWith("#")) throw new Error(`unexpected comment: ${line}`);
    m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)(?: (-?\d+))?$/.exec(line);
    if (!m) throw new Error(`not a sample line: ${line}`);
    const name = m[1]!;
    const family = [...families.values()].find((f) => SUFFIXES[f.type]?.some((s) => f.name + s === name));
    if (!family) throw new Error(`sample ${name} of no declared family`);
    family.samples.push({ name, labels: parseLabels(m[2] ?? ""), value: parseValue(m[3]!) });
  }
  for (const f of families.values()) {
    if (f.type === "") throw new Error(`${f.name} has no TYPE`);
    if (f.type === "counter" && !f.name.endsWith("_total")) throw new Error(`counter ${f.name} does not end in _total`);
    if (f.type === "histogram") checkHistogram(f);
  }
  return families;
}

function checkHistogram(f: Family): void {
  const series = new Map<string, Sample[]>();
  const key = (labels: Record<string, string>) =>
    JSON.stringify(
      Object.entries(labels)
        .filter(([k]) => k !== "le")
        .sort(),
    );
  for (const s of f.samples.filter((x) => x.name === `${f.name}_bucket`)) {
    if (!("le" in s.labels)) throw new Error(`${f.name}_bucket without le`);
    series.set(key(s.labels), [...(series.get(key(s.labels)) ?? []), s]);
  }
  for (const [k, buckets] of series) {
    let le = Number.NEGATIVE_INFINITY;
    let count = 0;
    for (const b of buckets) {
      const bound = parseValue(b.labels.le!);
      if (bound <= le || b.value < count) throw new Error(`${f.name} buckets not ascending and cumulative (${k})`);
      le = bound;
      count = b.value;
    }
    if (le !== Number.POSITIVE_INFINITY) throw new Error(`${f.name} has no +Inf bucket (${k})`);
    const total = f.samples.find((s) => s.name === `${f.name}_count` && key(s.labels) === k);
    if (!total || total.value !== count) throw new Error(`${f.name}_count differs from its +Inf bucket (${k})`);
  }
}

/** The value of one sample (0 when absent): a family's name, or a histogram's name with its suffix, and labels it must have. */
export function sampleValue(families: Map<string, Family>, name: string, labels: Record<string, string> = {}): number {
  for (const f of families.values()) {
    for (const s of f.samples) {
      if (s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v)) return s.value;
    }
  }
  return 0;
}

/** The sum over every sample of `name` with these labels. */
export function sampleSum(families: Map<string, Family>, name: string, labels: Record<string, string> = {}): number {
  let sum = 0;
  for (const f of families.values())
    for (const s of f.samples) if (s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v)) sum += s.value;
  return sum;
}
