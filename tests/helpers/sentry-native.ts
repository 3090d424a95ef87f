// sentry-native's msgpack parts as its Crashpad backend writes them into the run folder and Crashpad uploads them beside
// the minidump (getsentry/sentry-native src/backends/sentry_backend_crashpad.cpp, src/sentry_value.c):
//   `__sentry-event`: flush_scope_to_event writes the scope applied to an event holding `event_id` and `level` fatal
//     (crashpad_backend_flush_scope), as one msgpack map (sentry_value_to_msgpack: maps with string keys, strings,
//     int32/int64/uint64, doubles, booleans, nil, arrays);
//   `__sentry-breadcrumb1`/`2`: crashpad_backend_add_breadcrumb writes breadcrumb n to file 1 while
//     n mod (2 × max_breadcrumbs) < max_breadcrumbs, else to file 2, each msgpack map appended, the file started
//     afresh with the first breadcrumb of its turn; a breadcrumb's `timestamp` is an RFC 3339 string with microseconds
//     (timestamp_value: sentry__usec_time_to_iso8601).
// Crashpad's uploader sends each attachment as a file part named after the file (field and filename alike).
import { encode } from "@msgpack/msgpack";

export type NativeBreadcrumb = { timestamp: string; type?: string; category?: string; message: string; level?: string; data?: Record<string, unknown> };

/** An RFC 3339 time with microseconds, as sentry__usec_time_to_iso8601 writes it. */
export const usecTime = (seconds: number) =>
  `${new Date(Math.floor(seconds) * 1000).toISOString().slice(0, 19)}.${String(Math.round((seconds % 1) * 1e6)).padStart(6, "0")}Z`;

/** `__sentry-event`'s bytes. */
export const nativeEventPart = (event: Record<string, unknown>) => Buffer.from(encode(event));

/** The two breadcrumb files after `crumbs` were added in order with `maxBreadcrumbs`, as the backend rotates them. */
export function breadcrumbFiles(crumbs: NativeBreadcrumb[], maxBreadcrumbs: number): [Buffer, Buffer] {
  const files: Buffer[][] = [[], []];
  crumbs.forEach((crumb, n) => {
    const which = n % (maxBreadcrumbs * 2) < maxBreadcrumbs ? 0 : 1;
    if (n % maxBreadcrumbs === 0) files[which] = [];
    files[which]!.push(Buffer.from(encode(crumb)));
  });
  return [Buffer.concat(files[0]!), Buffer.concat(files[1]!)];
}

/** The file parts Crashpad uploads for the run folder's attachments. */
export const nativeParts = (event: Buffer, crumbs1: Buffer, crumbs2: Buffer) =>
  [
    ["__sentry-event", event],
    ["__sentry-breadcrumb1", crumbs1],
    ["__sentry-breadcrumb2", crumbs2],
  ].map(([name, data]) => ({ field: name as string, filename: name as string, data: data as Buffer }));
