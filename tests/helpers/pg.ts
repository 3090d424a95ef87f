// A fresh database on the test PostgreSQL server (scripts/pg.sh), dropped afterwards.
import pg from "pg";

export function pgTestUrl(): string {
  const url = process.env.FAULTLINE_TEST_PG_URL;
  if (!url) throw new Error("FAULTLINE_TEST_PG_URL is not set: run the tests through `npm test`, which starts PostgreSQL");
  return url;
}

export async function freshPgDatabase(name: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const admin = new pg.Client({ connectionString: pgTestUrl() });
  await admin.connect();
  try {
    // Test files run in parallel, and PostgreSQL refuses to copy template1 while another CREATE DATABASE uses it
    // ("source database is being accessed by other users", 55006): wait and try again.
    for (let attempt = 1; ; attempt++) {
      try {
        await admin.query(`create database "${name}"`);
        break;
      } catch (err) {
        if ((err as { code?: string }).code !== "55006" || attempt >= 20) throw err;
        await new Promise((r) => setTimeout(r, 100 * attempt));
      }
    }
  } finally {
    await admin.end();
  }
  const url = new URL(pgTestUrl());
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: pgTestUrl() });
      await c.connect();
      await c.query(`drop database if exists "${name}" with (force)`);
      await c.end();
    },
  };
}
