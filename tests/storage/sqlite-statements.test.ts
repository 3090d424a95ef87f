// The connection's kept prepared statements (src/storage/sqlite-statements.ts): reused by SQL text, bounded by their
// number and their characters, least recently used out first, a busy one never handed out twice. Real SQLite.
import assert from "node:assert/strict";
import { test } from "node:test";
import Database from "better-sqlite3";
import { STORAGE_LIMITS } from "../../src/config/limits";
import { withStatementCache } from "../../src/storage/sqlite-statements";

/** A statement of about `chars` characters: a select of one padded string literal, distinct by `tag`. */
const statement = (tag: string, chars: number) => `select '${tag}${"x".repeat(Math.max(0, chars - tag.length - 10))}' as v`;

test("issue 22 memory: a kept statement is reused by its text, and one still being read is not handed out twice", () => {
  const cache = withStatementCache(new Database(":memory:"));
  const a = cache.prepare("select 1 as v");
  assert.equal(cache.prepare("select 1 as v"), a);
  const rows = cache.prepare("select value as v from json_each('[1,2,3]')");
  const it = (rows as unknown as { iterate(): IterableIterator<unknown> }).iterate();
  it.next();
  assert.notEqual(cache.prepare("select value as v from json_each('[1,2,3]')"), rows, "busy: a fresh statement");
  it.return?.();
  assert.equal(cache.prepare("select value as v from json_each('[1,2,3]')"), rows, "done: the kept one again");
  cache.close();
});

test("issue 22 memory: the kept statements stay within preparedStatementChars, the least recently used out first", () => {
  const cache = withStatementCache(new Database(":memory:"));
  const size = Math.floor(STORAGE_LIMITS.preparedStatementChars / 4);
  const first = cache.prepare(statement("first", size));
  const second = cache.prepare(statement("second", size));
  cache.prepare(statement("third", size));
  // Used again: now the most recent of the three.
  assert.equal(cache.prepare(statement("first", size)), first);
  // Two more of a quarter each: past the bound, the least recently used (second, then third) leave.
  cache.prepare(statement("fourth", size));
  cache.prepare(statement("fifth", size));
  assert.equal(cache.prepare(statement("first", size)), first, "recently used: kept");
  assert.notEqual(cache.prepare(statement("second", size)), second, "least recently used: prepared again");
  cache.close();
});

test("issue 22 memory: a statement longer than the whole bound is prepared each time and never kept", () => {
  const cache = withStatementCache(new Database(":memory:"));
  const small = cache.prepare("select 2 as v");
  const huge = statement("huge", STORAGE_LIMITS.preparedStatementChars + 100);
  const one = cache.prepare(huge);
  assert.notEqual(cache.prepare(huge), one);
  assert.equal(cache.prepare("select 2 as v"), small, "and it pushes nothing out");
  cache.close();
});
