// What Faultline's own pages must not report about themselves (issue 18): the secrets some of its URLs carry. The
// password reset link's token is in the query (?token=…), an invitation's secret is a path segment (/invite/<secret>),
// and the personal-data search puts the person's address in the query (?value=…). Every URL the browser SDK sends
// (the request, the page-load transaction's name, navigation and fetch breadcrumbs, spans' descriptions and URLs)
// loses its query and fragment, and an invitation's secret becomes "[secret]", before it leaves the page.

/** The URL without query or fragment, an invitation's secret replaced; text that is not a URL is kept as it is. */
export function redactUrl(text: string): string {
  return text.replace(/[?#][^\s]*/, "").replace(/(\/invite\/)[^/?#\s]+/g, "$1[secret]");
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null;
const URL_KEYS = ["url", "from", "to"] as const;

function redactKeys(data: unknown): void {
  if (!isObject(data)) return;
  for (const key of URL_KEYS) if (typeof data[key] === "string") data[key] = redactUrl(data[key] as string);
  if (typeof data["http.query"] === "string") delete data["http.query"];
  if (typeof data["http.fragment"] === "string") delete data["http.fragment"];
}

/** Redacts every URL of an event or transaction in place (beforeSend and beforeSendTransaction), and returns it. */
export function redactEventUrls<E>(event: E): E {
  const e = event as Json;
  if (isObject(e.request)) {
    const request = e.request;
    if (typeof request.url === "string") request.url = redactUrl(request.url);
    delete request.query_string;
    if (isObject(request.headers) && typeof request.headers.Referer === "string") request.headers.Referer = redactUrl(request.headers.Referer);
  }
  if (typeof e.transaction === "string") e.transaction = redactUrl(e.transaction);
  for (const crumb of Array.isArray(e.breadcrumbs) ? e.breadcrumbs : []) {
    if (!isObject(crumb)) continue;
    redactKeys(crumb.data);
    if (typeof crumb.message === "string" && crumb.category === "navigation") crumb.message = redactUrl(crumb.message);
  }
  for (const span of Array.isArray(e.spans) ? e.spans : []) {
    if (!isObject(span)) continue;
    if (typeof span.description === "string") span.description = redactUrl(span.description);
    redactKeys(span.data);
  }
  if (isObject(e.contexts) && isObject(e.contexts.trace)) redactKeys(e.contexts.trace.data);
  return event;
}
