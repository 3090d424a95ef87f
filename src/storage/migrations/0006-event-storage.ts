// Events kept compressed (storage/event-codec.ts): events.data holds bytes with a codec byte in front. PostgreSQL
// turns the column into bytea, each old row into the UTF-8 bytes of its JSON (read back as codec '{'). SQLite needs no
// change: a TEXT column keeps a BLOB as it is given (type affinity only converts numbers), and old rows stay TEXT.
import { type Kysely, sql } from "kysely";
import type { Dialect } from "../db";

export function eventStorage(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      if (dialect === "postgres") await sql`alter table events alter column data type bytea using convert_to(data, 'UTF8')`.execute(db);
    },
  };
}
