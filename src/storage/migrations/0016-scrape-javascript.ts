// A project's choice to let the digest fetch JavaScript source files and source maps from the public URLs its
// events name (Sentry's project option `sentry:scrape_javascript`, `scrapeJavaScript` in its API). Off by default:
// Faultline fetches nothing on a project's behalf until someone who may change the project turns it on.
import type { Kysely } from "kysely";
import type { Dialect } from "../db";
import { dialectTypes } from "./types";

export function scrapeJavaScript(dialect: Dialect) {
  const t = dialectTypes(dialect);
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .alterTable("projects")
        .addColumn("scrape_javascript", t.bool, (c) => c.notNull().defaultTo(t.false))
        .execute();
    },
  };
}
