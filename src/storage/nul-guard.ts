// PostgreSQL's text cannot hold U+0000: a statement with one fails (SQLSTATE 22021, "invalid byte sequence for
// encoding UTF8: 0x00"), and whatever sent it answered 500 on PostgreSQL installs only. The web API and the pages'
// addresses refuse NUL where it comes in (web/api/nul.ts, server/guards.ts) and the digest strips it from events
// (digest/normalize/nul.ts). This is the storage's own check for everything else (a server action's field, an identity
// provider's claims): a statement whose parameters hold a NUL is refused before it is sent, as a 400 at every boundary
// (an inline error on a form), and the digest counts it as a fault of the record (digest/failures.ts). SQLite stores
// NUL as given and needs no such check.
import type { CompiledQuery, DatabaseConnection, Driver } from "kysely";
import { AppError } from "../core/errors";

export const NUL_REFUSED_MESSAGE = "Text must not contain NUL characters";

/**
 * Whether a statement parameter holds a NUL: a string, or an array's element (node-postgres writes arrays out as
 * PostgreSQL array literals, NUL included). An object goes as JSON, in which JSON.stringify writes NUL as `\u0000`:
 * PostgreSQL's text holds that (Faultline keeps JSON in text columns, never in jsonb).
 */
export function parameterHoldsNul(value: unknown): boolean {
  if (typeof value === "string") return value.includes("\u0000");
  if (!Array.isArray(value)) return false;
  // A stack, not recursion: nothing bounds how deep a nested array parameter goes.
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const v = pending.pop();
    if (typeof v === "string") {
      if (v.includes("\u0000")) return true;
    } else if (Array.isArray(v)) {
      for (const item of v) pending.push(item);
    }
  }
  return false;
}

const guarded = new WeakSet<DatabaseConnection>();

function refuseNul(query: CompiledQuery): void {
  for (const p of query.parameters) if (parameterHoldsNul(p)) throw new AppError("bad_request", NUL_REFUSED_MESSAGE);
}

/** The driver, whose connections refuse a statement with a NUL in its parameters (the check above). */
export function refusingNul(driver: Driver): Driver {
  const acquire = driver.acquireConnection.bind(driver);
  driver.acquireConnection = async () => {
    const connection = await acquire();
    // The driver hands out the same connection objects again: each is wrapped once.
    if (!guarded.has(connection)) {
      guarded.add(connection);
      const execute = connection.executeQuery.bind(connection);
      const stream = connection.streamQuery.bind(connection);
      connection.executeQuery = async (query) => {
        refuseNul(query);
        return execute(query);
      };
      connection.streamQuery = (query, chunkSize) => {
        refuseNul(query);
        return stream(query, chunkSize);
      };
    }
    return connection;
  };
  return driver;
}
