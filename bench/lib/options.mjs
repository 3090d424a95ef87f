// The benchmarks' settings: `--name=value` on the command line (a bare `--name` is "1"; dashes are underscores and
// case does not matter), else BENCH_NAME in the environment, else the default.
const flags = Object.fromEntries(
  process.argv
    .slice(2)
    .map((a) => a.replace(/^--/, "").split("="))
    .map(([k, v]) => [k.toUpperCase().replaceAll("-", "_"), v ?? "1"]),
);

/** The setting NAME (upper case): `--name=value`, else BENCH_NAME, else `def`. */
export const opt = (name, def) => flags[name] ?? process.env[`BENCH_${name}`] ?? def;

/** As opt, reading NAME itself from the environment before BENCH_NAME (bench:soak's SOAK_* settings). */
export const optOrEnv = (name, def) => flags[name] ?? process.env[name] ?? process.env[`BENCH_${name}`] ?? def;
