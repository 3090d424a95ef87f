// An ignored issue's snooze (issues.snooze, JSON) keeps the counts it was ignored at, to tell when "ignore until it
// happens N more times" is met (core/issue-status.ts). It was given the whole issue row instead of its two counts, so
// the row's own earlier snooze nested inside, and each ignore of an ignored issue doubled the stored text: eleven made
// 1.8 MB, twenty-two 200 MB, and reading the issue then exhausted the server's memory. The baseline is written with its
// two counts now; this rewrites each snooze stored before, keeping its conditions and those counts, on both dialects.
// A normal snooze is under 300 characters, so only longer ones are read.
import { type Kysely, sql } from "kysely";

/** Longer than any snooze written with a two-count baseline (about 250 characters with every condition set). */
const NESTED_AT_CHARS = 400;

type Snooze = Record<string, unknown> & { baseline?: Record<string, unknown> };

const count = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : 0);

export function snoozeBaseline() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      let after = 0;
      for (;;) {
        // One row at a time: a nested snooze may be hundreds of megabytes.
        const { rows } = await sql<{ id: number; snooze: string }>`
          select id, snooze from issues where id > ${after} and snooze is not null and length(snooze) > ${NESTED_AT_CHARS}
          order by id limit 1`.execute(db);
        const row = rows[0];
        if (!row) return;
        after = Number(row.id);
        let snooze: Snooze;
        try {
          snooze = JSON.parse(row.snooze) as Snooze;
        } catch {
          continue; // not JSON: left as it was, as the reader leaves it
        }
        const baseline = { timesSeen: count(snooze.baseline?.timesSeen), userCount: count(snooze.baseline?.userCount) };
        await sql`update issues set snooze = ${JSON.stringify({ ...snooze, baseline })} where id = ${after}`.execute(db);
      }
    },
  };
}
