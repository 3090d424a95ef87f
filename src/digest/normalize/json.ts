// Small type guards for JSON input, shared by the normalization steps.

export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A finite JSON number. */
export function isNumber(value: unknown): value is number {
  return typeof value === "number" && Number.isFinite(value);
}

/** Number of Unicode code points, the unit of Relay's `max_chars`. */
export function charCount(value: string): number {
  let n = 0;
  for (const _ of value) n++;
  return n;
}

/** Sets an own property, even one named `__proto__`, so the value survives JSON serialization. */
export function setOwn(obj: JsonObject, key: string, value: unknown): void {
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
}
