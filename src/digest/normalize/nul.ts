// NUL characters out of everything the digest stores. PostgreSQL's text and jsonb cannot hold U+0000 (SQLSTATE 22021,
// "invalid byte sequence for encoding UTF8: 0x00"), so one NUL in a message, a tag or a key failed the whole batch's
// transaction; on SQLite it reached the columns as is. No SDK sends one on purpose, and Sentry shows none. Every
// string and object key of a parsed payload loses its NULs here: events (normalizeEvent), span items, sessions and
// client reports (digest/items.ts), and the headers of other kept items.

import type { ErrorSink } from "./errors";

const NUL = "\u0000";

const clean = (s: string) => s.replaceAll(NUL, "");

/**
 * Removes U+0000 from every string and object key of a JSON value, in place; returns the value (a new string when the
 * value itself is one) and how many strings or keys lost a NUL. Iterative, so a deeply nested payload cannot overflow
 * the stack; a key that loses its NUL keeps its place in the object's order, and wins over a key it now equals, as
 * the later of two equal keys wins in JSON.parse.
 */
export function stripNul(value: unknown): { value: unknown; stripped: number } {
  if (typeof value === "string") return value.includes(NUL) ? { value: clean(value), stripped: 1 } : { value, stripped: 0 };
  let stripped = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const node = stack.pop();
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        const item: unknown = node[i];
        if (typeof item === "string") {
          if (item.includes(NUL)) {
            node[i] = clean(item);
            stripped++;
          }
        } else if (typeof item === "object" && item !== null) stack.push(item);
      }
    } else if (typeof node === "object" && node !== null) {
      const obj = node as Record<string, unknown>;
      const keys = Object.keys(obj);
      if (keys.some((k) => k.includes(NUL))) {
        // Rebuilt in order, so the keys without NUL stay where they were.
        const entries = keys.map((k) => [k, obj[k]] as const);
        for (const k of keys) delete obj[k];
        for (const [k, v] of entries) {
          const key = k.includes(NUL) ? (stripped++, clean(k)) : k;
          Object.defineProperty(obj, key, { value: v, enumerable: true, writable: true, configurable: true });
        }
      }
      for (const k of Object.keys(obj)) {
        const item = obj[k];
        if (typeof item === "string") {
          if (item.includes(NUL)) {
            obj[k] = clean(item);
            stripped++;
          }
        } else if (typeof item === "object" && item !== null) stack.push(item);
      }
    }
  }
  return { value, stripped };
}

/**
 * True when no string or key parsed from this JSON text can hold U+0000. JSON has one way to write it, the escape
 * `\u0000` (a raw control character in a string is not JSON), so a text without those six characters has none; a text
 * with them (or with an escaped backslash before "u0000") is walked. One search of the text, a fraction of the walk.
 */
export const jsonHasNoNul = (text: string): boolean => !text.includes("\\u0000");

/** A JSON text (an item's headers) without NUL characters in its strings and keys; unchanged when it has none. */
export function stripNulFromJsonText(text: string): string {
  if (jsonHasNoNul(text)) return text;
  try {
    return JSON.stringify(stripNul(JSON.parse(text) as unknown).value);
  } catch {
    // Not JSON (the intake only writes JSON here): keep it as text, without the escape PostgreSQL's jsonb refuses.
    return text.replaceAll("\\u0000", "");
  }
}

/** The normalization pass: an event's NULs removed, and one processing error counting the strings and keys losing one. */
export function removeNul(event: Record<string, unknown>, sink: ErrorSink): void {
  const { stripped } = stripNul(event);
  if (stripped > 0) sink.add("invalid_data", "", undefined, { reason: `NUL characters removed from ${stripped} strings or keys` });
}
