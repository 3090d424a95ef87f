// The digest's hottest statements, multi-row INSERTs of a fixed shape (spans, events, their users, logs), as SQL text
// made once per shape, dialect and row count. Kysely's builder parses every value of every row into its syntax tree
// and compiles the tree again on each call: about 5 % of the digest thread's time in bench:digest's profile, for
// statements whose text never changes. The values are bound as the builder binds them (the drivers receive the same
// parameters); only columns and clauses written here, never input, go into the text.
import { CompiledQuery, type Kysely, type Transaction } from "kysely";
import type { Dialect } from "../db";
import type { Database } from "../schema";
import { chunks } from "./batch-rows";

export type RowShape<Row> = {
  table: string;
  columns: readonly string[];
  /** The row's values in the order of `columns`, as the dialect stores them. */
  values: (row: Row, dialect: Dialect) => unknown[];
  /** A column's value as an expression of its parameter (`array_to_tsvector($1::text[])`), where it is not the value itself. */
  expressions?: Record<string, (parameter: string) => string>;
  /** What follows the VALUES list (ON CONFLICT …, RETURNING …), per dialect. */
  suffix?: Partial<Record<Dialect, string>>;
  /** Rows per statement (bound parameters: columns × rows stay under SQLite's 32,766 and PostgreSQL's 65,535). */
  rowsPerStatement?: number;
};

const quote = (identifier: string): string => `"${identifier}"`;

/** The statement texts of each shape, by dialect and row count: at most 2 × rowsPerStatement per shape. */
const texts = new WeakMap<RowShape<never>, Map<string, string>>();

function textOf<Row>(shape: RowShape<Row>, dialect: Dialect, rows: number): string {
  let byCount = texts.get(shape as RowShape<never>);
  if (!byCount) texts.set(shape as RowShape<never>, (byCount = new Map()));
  const key = `${dialect}:${rows}`;
  const found = byCount.get(key);
  if (found) return found;
  const width = shape.columns.length;
  const tuples: string[] = [];
  for (let r = 0; r < rows; r++) {
    const marks = shape.columns.map((column, c) => {
      const mark = dialect === "postgres" ? `$${r * width + c + 1}` : "?";
      const expression = shape.expressions?.[column];
      return expression ? expression(mark) : mark;
    });
    tuples.push(`(${marks.join(", ")})`);
  }
  const suffix = shape.suffix?.[dialect];
  const text = `insert into ${quote(shape.table)} (${shape.columns.map(quote).join(", ")}) values ${tuples.join(", ")}${suffix ? ` ${suffix}` : ""}`;
  byCount.set(key, text);
  return text;
}

/** Inserts `rows` in statements of the shape; the rows a RETURNING clause gave, in order. */
export async function insertRows<Row, Returned = never>(
  db: Kysely<Database> | Transaction<Database>,
  dialect: Dialect,
  shape: RowShape<Row>,
  rows: readonly Row[],
): Promise<Returned[]> {
  const returned: Returned[] = [];
  for (const part of chunks(rows as Row[], shape.rowsPerStatement)) {
    const parameters: unknown[] = [];
    for (const row of part) for (const value of shape.values(row, dialect)) parameters.push(value);
    const result = await db.executeQuery<Returned>(CompiledQuery.raw(textOf(shape, dialect, part.length), parameters));
    for (const r of result.rows) returned.push(r);
  }
  return returned;
}
