// Where an event was scrubbed (issue 18): the remarks Relay's format keeps in `_meta` (a tree mirroring the event;
// at a value's node, `""` holds { rem: [[rule, type, start?, end?], …], len }), listed by path. Pairs ([key, value]
// lists such as request headers and cookies) are named by their key, as people read them: request.headers.Authorization.

export type ScrubbedField = { path: string; rules: { rule: string; remark: string }[] };

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/** A step of the path, named by the pair's key where the data holds a [key, value] pair there. */
function stepName(data: unknown, key: string): string {
  if (Array.isArray(data) && /^\d+$/.test(key)) {
    const item = data[Number(key)];
    if (Array.isArray(item) && item.length === 2 && typeof item[0] === "string") return item[0];
  }
  return key;
}

function child(data: unknown, key: string): unknown {
  if (Array.isArray(data) && /^\d+$/.test(key)) {
    const item = data[Number(key)];
    // A pair's value is what the remark's next step ("1") names; skip into it so the key is the step's name.
    return item;
  }
  return isObject(data) ? data[key] : undefined;
}

/** Every scrubbed value of the event, in the order of its `_meta`, at most `limit`. */
export function scrubbedFields(event: Json, limit = 100): ScrubbedField[] {
  const out: ScrubbedField[] = [];
  const walk = (meta: unknown, data: unknown, path: string[]) => {
    if (!isObject(meta) || out.length >= limit) return;
    const here = meta[""];
    if (isObject(here) && Array.isArray(here.rem)) {
      const rules = here.rem
        // "!limit" marks where normalization cut a value to its size limit (the "..." shows it): not a scrubbed value.
        .filter((r): r is unknown[] => Array.isArray(r) && typeof r[0] === "string" && r[0] !== "!limit")
        .map((r) => ({ rule: r[0] as string, remark: typeof r[1] === "string" ? r[1] : "" }));
      if (rules.length > 0) out.push({ path: path.join("."), rules });
    }
    for (const [k, sub] of Object.entries(meta)) {
      if (k === "") continue;
      const pairValue = Array.isArray(data) && /^\d+$/.test(k) && Array.isArray(data[Number(k)]) && (data[Number(k)] as unknown[]).length === 2;
      if (pairValue && isObject(sub) && Object.keys(sub).every((s) => s === "1" || s === "0" || s === "")) {
        // [key, value] pair: its value's remarks are under "1"; name the step by the key.
        const name = stepName(data, k);
        const pair = child(data, k) as unknown[];
        if (isObject(sub[""])) walk({ "": sub[""] }, pair, [...path, name]);
        if (sub["1"] !== undefined) walk(sub["1"], pair[1], [...path, name]);
        if (sub["0"] !== undefined) walk(sub["0"], pair[0], [...path, `${name} (key)`]);
        continue;
      }
      walk(sub, child(data, k), [...path, k]);
    }
  };
  walk(event._meta, event, []);
  return out;
}
