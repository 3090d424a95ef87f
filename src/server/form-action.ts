// Which requests Next.js handles as server actions, and the checks of one posted by a form without JavaScript.
//
// Next.js 14.2 (server/lib/server-action-request-meta.js) takes any POST with a Next-Action header as a fetch-style
// action, and any multipart POST to a page as a form's action: it finds the action in the form's `$ACTION_…` fields
// (app-render/action-handler.js, areAllActionIdsValid, mirroring React's decodeAction) and throws, a 500, on a form
// that names none, an id it does not know, a descriptor or bound arguments that are not JSON, and an Origin that is
// not this host or not a URL. Faultline reads such a form first (server/action-body.ts) and refuses each of those
// with a 4xx, by the same rules.
import type http from "node:http";

export type ActionKind = "fetch" | "form";

/** A server action request refused before Next.js reads it: its status and detail. */
export type Refusal = { status: 400 | 404 | 408 | 413; detail: string };

/** Paths under the base path that take multipart POSTs of their own (route handlers, not pages). */
const NOT_PAGES = ["/api/", "/monitoring"];

const isPagePath = (pathname: string, basePath: string) => {
  const path = pathname.slice(basePath.length);
  return !NOT_PAGES.some((prefix) => path === prefix.replace(/\/$/, "") || path.startsWith(prefix));
};

/** How Next.js will take the request: a fetch-style action, a form's action, or neither (null). */
export function actionKind(req: http.IncomingMessage, pathname: string, basePath: string): ActionKind | null {
  if (req.method !== "POST") return null;
  if (req.headers["next-action"] !== undefined) return "fetch";
  if (!(req.headers["content-type"] ?? "").startsWith("multipart/form-data")) return null;
  return isPagePath(pathname, basePath) ? "form" : null;
}

/**
 * A body sent to a page that is no server action (a POST of JSON or a plain form, a PUT). Next.js reads it for its
 * middleware before anything answers, with no deadline: one that stopped arriving held its request for Node's 5
 * minutes, and was logged as an error when the client gave up. The listener reads it first (server/action-body.ts).
 */
export function bodyToPage(req: http.IncomingMessage, pathname: string, basePath: string): boolean {
  const length = req.headers["content-length"];
  const carries = req.headers["transfer-encoding"] !== undefined || (length !== undefined && length !== "0");
  return carries && req.method !== "GET" && req.method !== "HEAD" && isPagePath(pathname, basePath);
}

/** An action id as Next.js makes them: 40 hexadecimal characters. */
const ACTION_ID = /^[0-9a-f]{40}$/;

const malformed: Refusal = { status: 400, detail: "Malformed server action payload" };
const unknown: Refusal = { status: 404, detail: "No such server action: the page may be from another version of Faultline; reload it" };

/**
 * Why a fetch-style action's id would fail in Next.js, or null: one the build does not have. Next answers it 404
 * too, but logs a stack trace for each ("Failed to find Server Action"), which anyone could cause at will.
 */
export function fetchActionRefusal(req: http.IncomingMessage, actionIds: ReadonlySet<string> | null): Refusal | null {
  const id = req.headers["next-action"];
  return actionIds === null || (typeof id === "string" && actionIds.has(id)) ? null : unknown;
}

/**
 * Why a form's action fields would fail in Next.js, or null. `actionIds`: the build's actions (its
 * server-reference-manifest.json); null checks the ids' form only.
 */
export function formActionRefusal(fields: ReadonlyMap<string, readonly string[]>, actionIds: ReadonlySet<string> | null): Refusal | null {
  const known = (id: string) => ACTION_ID.test(id) && (actionIds === null || actionIds.has(id));
  let named = false;
  for (const [name, values] of fields) {
    if (name.startsWith("$ACTION_ID_")) {
      if (!known(name.slice("$ACTION_ID_".length))) return unknown;
      named = true;
    } else if (name.startsWith("$ACTION_REF_")) {
      const descriptors = fields.get(`$ACTION_${name.slice("$ACTION_REF_".length)}:0`);
      if (descriptors?.length !== 1) return malformed;
      // Next.js reads the id at a fixed place: the descriptor must begin `{"id":"<40 characters>"`.
      const descriptor = descriptors[0]!;
      if (!descriptor.startsWith('{"id":"') || descriptor[47] !== '"') return malformed;
      if (!known(descriptor.slice(7, 47))) return unknown;
      named = true;
    } else if (/^\$ACTION_\d+:\d+$/.test(name)) {
      // A descriptor or its bound arguments: React parses each as JSON.
      for (const value of values) {
        try {
          JSON.parse(value);
        } catch {
          return malformed;
        }
      }
    }
  }
  return named ? null : { status: 400, detail: "A form posted to a page must name a server action" };
}
