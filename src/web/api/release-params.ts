// What the release routes read from a request: the version (percent-encoded in the path, and it may hold "@", "+" or
// an encoded "/") and the list's query parameters.
import type { ReleaseListQuery } from "../../core/releases";
import { pageRequest } from "../../core/pagination";
import { notFound } from "../../core/errors";

/**
 * The release version of a `…/releases/{version}/` URL: its last path segment, decoded once from the request's own
 * URL, so that "1.0%2B1" is "1.0+1" and an encoded "/" stays inside the version. `segmentsAfter`: how many path
 * segments follow the version (1 for `…/releases/{version}/files/`).
 */
export function versionOf(url: URL, segmentsAfter = 0): string {
  const segments = url.pathname.replace(/\/+$/, "").split("/");
  const raw = segments[segments.length - 1 - segmentsAfter] ?? "";
  try {
    return decodeURIComponent(raw);
  } catch {
    throw notFound("Release");
  }
}

const truthy = (v: string | null) => v === "1" || v === "true";

export function releaseListQuery(url: URL): ReleaseListQuery {
  const p = url.searchParams;
  return {
    query: p.get("query"),
    projectIds: p.getAll("project"),
    health: truthy(p.get("health")),
    environments: p.getAll("environment"),
    page: pageRequest("time|id", { cursor: p.get("cursor"), limit: p.get("per_page") ?? p.get("limit") ?? undefined }),
  };
}

export const healthOptions = (url: URL) => ({ health: truthy(url.searchParams.get("health")), environments: url.searchParams.getAll("environment") });
