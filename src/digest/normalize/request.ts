// The request interface (relay-event-schema protocol/request.rs: headers, query_string and cookies as pair lists,
// cookies parsed from strings) and its normalization (relay-event-normalization normalize/request.rs: method in
// upper case, query string and fragment split off the URL, a body sent as text read as JSON or a form as Relay's
// `normalize_data` reads it, cookies taken from the `Cookie` header).
import { INGEST_LIMITS } from "../../config/limits";
import { jsonDepthExceeds } from "../../protocol/json";
import { ErrorSink } from "./errors";
import { jsonHasNoNul, stripNul } from "./nul";
import { type JsonObject } from "./json";
import { parseCookies, parseQuery, toPairs, type Pair } from "./pairs";
import { objectField, stringField } from "./strings";

function pairsField(request: JsonObject, key: string, sink: ErrorSink, parseString: (text: string) => Pair[]): void {
  if (!(key in request)) return;
  const raw = request[key];
  const pairs = typeof raw === "string" ? parseString(raw) : toPairs(raw, `request.${key}`, sink);
  if (pairs && pairs.length > 0) request[key] = pairs;
  else delete request[key];
}

/**
 * Relay's `urlencoded_from_str`: an ASCII form body that is not XML or partial JSON, decoded into an object, unless
 * the decoding is a false positive (one key with an empty or "=" value: a plain word, or base64).
 */
function urlencodedBody(raw: string): Record<string, string> | null {
  if (!/^[\x00-\x7f]*$/.test(raw) || raw.startsWith("<?xml") || raw.startsWith("{") || raw.startsWith("[")) return null;
  const form: Record<string, string> = {};
  for (const [key, value] of new URLSearchParams(raw)) form[key] = value;
  const values = Object.values(form);
  const valid = values.length > 1 || (values.length === 1 && values[0] !== "" && values[0] !== "=");
  return valid ? form : null;
}

/**
 * Relay's `normalize_data`: a body sent as text is parsed, JSON first, then a form; `inferred_content_type` says which,
 * else it is the Content-Type header's. Parsed bodies are what data scrubbing reads key by key (a password in a JSON
 * body is a key like any other). A JSON text nested past INGEST_LIMITS.maxJsonDepth stays text, as the intake refuses
 * such payloads.
 */
function normalizeData(request: JsonObject): void {
  delete request.inferred_content_type;
  const raw = request.data;
  if (typeof raw === "string") {
    let parsed: unknown;
    let type: string | null = null;
    if (!jsonDepthExceeds(raw, INGEST_LIMITS.maxJsonDepth)) {
      try {
        // The text's own NUL characters were taken out with the event's; an escaped one (\u0000) appears only now.
        parsed = JSON.parse(raw) as unknown;
        if (!jsonHasNoNul(raw)) parsed = stripNul(parsed).value;
        type = "application/json";
      } catch {
        // Not JSON: perhaps a form.
      }
    }
    if (type === null) {
      const form = urlencodedBody(raw);
      if (form) [parsed, type] = [form, "application/x-www-form-urlencoded"];
    }
    if (type !== null) {
      request.data = parsed as JsonObject;
      request.inferred_content_type = type;
      return;
    }
  }
  const headers = Array.isArray(request.headers) ? (request.headers as Pair[]) : [];
  const contentType = headers.find(([k]) => k.toLowerCase() === "content-type")?.[1];
  if (typeof contentType === "string") request.inferred_content_type = contentType.split(";")[0]!;
}

/** Normalizes `event.request`. */
export function normalizeRequest(event: JsonObject, sink: ErrorSink): void {
  const request = objectField(event, "request", "", sink);
  if (!request) return;
  for (const key of ["url", "method", "fragment", "inferred_content_type", "api_target"]) stringField(request, key, "request", sink);
  if (typeof request.method === "string") request.method = request.method.toUpperCase();

  if (typeof request.url === "string") {
    let url = request.url;
    const hash = url.indexOf("#");
    if (hash >= 0) {
      if (request.fragment === undefined && hash + 1 < url.length) request.fragment = url.slice(hash + 1);
      url = url.slice(0, hash);
    }
    const q = url.indexOf("?");
    if (q >= 0) {
      if (request.query_string === undefined && q + 1 < url.length) request.query_string = url.slice(q + 1);
      url = url.slice(0, q);
    }
    request.url = url;
  }

  pairsField(request, "headers", sink, () => []);
  if (typeof request.headers === "string") delete request.headers;
  normalizeData(request);
  pairsField(request, "query_string", sink, parseQuery);
  pairsField(request, "cookies", sink, parseCookies);
  if (request.cookies === undefined && Array.isArray(request.headers)) {
    const headers = request.headers as Pair[];
    const at = headers.findIndex(([k]) => k.toLowerCase() === "cookie");
    const header = headers[at];
    if (header) {
      const cookies = parseCookies(header[1]);
      if (cookies.length > 0) request.cookies = cookies;
      headers.splice(at, 1);
    }
  }
  objectField(request, "env", "request", sink);
}
