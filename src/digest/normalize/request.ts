// The request interface (relay-event-schema protocol/request.rs: headers, query_string and cookies as pair lists,
// cookies parsed from strings) and its normalization (relay-event-normalization normalize/request.rs: method in
// upper case, query string and fragment split off the URL, cookies taken from the `Cookie` header).
import { ErrorSink } from "./errors";
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
