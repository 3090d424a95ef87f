// The messages: both locales carry the same keys, and every namespace a client component reads is among those the
// layout sends to the browser (src/i18n/client-messages.ts), so no client string is ever missing.
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { CLIENT_NAMESPACES, clientMessages } from "../../src/i18n/client-messages";
import de from "../../src/i18n/messages/de.json" with { type: "json" };
import en from "../../src/i18n/messages/en.json" with { type: "json" };

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

test("every namespace a client component translates with is sent to the browser", () => {
  const used = new Set<string>();
  for (const file of files(path.resolve("src"))) {
    const text = readFileSync(file, "utf8");
    if (!/^\s*["']use client["']/m.test(text)) continue;
    for (const m of text.matchAll(/useTranslations\(\s*["']([^"'.]+)/g)) used.add(m[1]!);
    assert.doesNotMatch(text, /useTranslations\(\s*\)/, `${file}: useTranslations() without a namespace would need every message`);
  }
  assert.ok(used.size > 0, "no client component translates: the scan is broken");
  for (const ns of used) assert.ok((CLIENT_NAMESPACES as readonly string[]).includes(ns), `client namespace "${ns}" is not in CLIENT_NAMESPACES`);
});

test("clientMessages keeps only the client namespaces", () => {
  const picked = clientMessages(en);
  assert.deepEqual(Object.keys(picked).sort(), [...CLIENT_NAMESPACES].sort());
  assert.ok(JSON.stringify(picked).length < JSON.stringify(en).length / 4);
});
