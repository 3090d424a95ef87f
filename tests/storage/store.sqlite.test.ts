import { conformance } from "./conformance";

conformance("SQLite (better-sqlite3, in memory)", () => ({ dialect: "sqlite", file: ":memory:" }));
