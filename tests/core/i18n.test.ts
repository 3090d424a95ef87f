// The messages: both locales carry the same keys, and every namespace a client component reads is among those the
// layout sends to the browser (src/i18n/client-messages.ts), so no client string is ever missing.
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import de from "../../src/i18n/messages/de.json" with { type: "json" };
import en from "../../src/i18n/messages/en.json" with { type: "json" };
import { STORAGE_WRITES } from "../../src/storage/storage-full";

const keys = (o: unknown, prefix = ""): string[] =>
  o !== null && typeof o === "object" ? Object.entries(o).flatMap(([k, v]) => keys(v, `${prefix}${k}.`)) : [prefix.slice(0, -1)];

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    return statSync(p).isDirectory() ? files(p) : /\.tsx?$/.test(name) ? [p] : [];
  });
}

test("English and German have the same message keys", () => {
  assert.deepEqual(keys(de).sort(), keys(en).sort());
});

test("the diagnostics page names every write a full disk is reported for in the reader's language", () => {
  // storage/storage-full.ts names them in English for the log and the health check; the page translates the key.
  assert.deepEqual(Object.keys(de.diagnostics.storage.writes).sort(), Object.keys(STORAGE_WRITES).sort());
  assert.deepEqual(en.diagnostics.storage.writes, STORAGE_WRITES, "the English page says what the log says");
  for (const [key, text] of Object.entries(de.diagnostics.storage.writes))
    assert.notEqual(text, STORAGE_WRITES[key as keyof typeof STORAGE_WRITES], `${key} is German`);
});

test("no client component translates or loads next-intl: texts come translated from the server, and the ICU parser stays out of the pages", () => {
  let clientFiles = 0;
  for (const file of files(path.resolve("src"))) {
    const text = readFileSync(file, "utf8");
    if (!/^\s*["']use client["']/m.test(text)) continue;
    clientFiles++;
    // use-intl's hooks that format messages, numbers or dates in the browser would bring intl-messageformat's parser
    // (about 10 kB gzipped) into every page's first load.
    assert.doesNotMatch(text, /\b(useTranslations|useFormatter|useMessages|useNow|useTimeZone)\b/, `${file} translates or formats in the browser`);
    // Nor loads next-intl at all (its context and routing): client code reads the locales from i18n/locales.ts.
    assert.doesNotMatch(text, /from ["'](next-intl|use-intl)[^"']*["']|i18n\/routing["']/, `${file} loads next-intl in the browser`);
  }
  assert.ok(clientFiles > 10, "no client component found: the scan is broken");
});
