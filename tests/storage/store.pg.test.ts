// Runs the conformance suite on a real PostgreSQL server: scripts/test.sh starts one (scripts/pg.sh) and passes
// its URL in FAULTLINE_TEST_PG_URL. Each run gets a fresh database.
import { randomBytes } from "node:crypto";
import { after } from "node:test";
import { conformance } from "./conformance";
import { freshPgDatabase } from "../helpers/pg";

let drop: (() => Promise<void>) | undefined;
conformance("PostgreSQL (pg)", async () => {
  const fresh = await freshPgDatabase(`conformance_${randomBytes(4).toString("hex")}`);
  drop = fresh.drop;
  return { dialect: "postgres", url: fresh.url };
});
after(async () => drop?.());
