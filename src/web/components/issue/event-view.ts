// The shapes the issue page reads from an event's entries (core/event-entries.ts builds them as Sentry's API
// serves them), typed for rendering.
import { eventEntries, type Entry } from "@/core/event-entries";
import type { EventJson } from "@/core/event-data";

export type Frame = {
  filename: string | null;
  absPath: string | null;
  module: string | null;
  function: string | null;
  platform: string | null;
  lineNo: number | null;
  colNo: number | null;
  inApp: boolean;
  context: [number | null, string][];
  vars: Record<string, unknown> | null;
};
export type Stacktrace = { frames: Frame[]; hasSystemFrames: boolean };
export type ExceptionValue = {
  type: string | null;
  value: string | null;
  module: string | null;
  mechanism: Record<string, unknown> | null;
  stacktrace: Stacktrace | null;
  /** The frames as the SDK sent them, when source maps changed them. */
  rawStacktrace?: Stacktrace | null;
};
export type Breadcrumb = {
  type: string;
  category: string | null;
  level: string;
  message: string | null;
  data: Record<string, unknown> | null;
  timestamp: string | null;
};
export type RequestData = { url: string | null; method: string | null; query: unknown; data: unknown; headers: unknown; cookies: unknown; env: unknown };

export type EventView = {
  message: string | null;
  /** The outermost exception first, then what caused it. */
  exceptions: ExceptionValue[];
  /** A stack trace not attached to an exception (a message with attach_stacktrace). */
  stacktrace: Stacktrace | null;
  breadcrumbs: Breadcrumb[];
  request: RequestData | null;
};

const dataOf = (entries: Entry[], type: string) => entries.find((e) => e.type === type)?.data as Record<string, unknown> | undefined;

export function eventView(data: EventJson): EventView {
  const entries = eventEntries(data);
  const exception = dataOf(entries, "exception");
  const message = dataOf(entries, "message");
  return {
    message: typeof message?.formatted === "string" ? message.formatted : null,
    // Sentry stores a chain innermost first (the cause before the error it caused).
    exceptions: [...((exception?.values as ExceptionValue[] | undefined) ?? [])].reverse(),
    stacktrace: (dataOf(entries, "stacktrace") as Stacktrace | undefined) ?? null,
    breadcrumbs: (dataOf(entries, "breadcrumbs")?.values as Breadcrumb[] | undefined) ?? [],
    request: (dataOf(entries, "request") as RequestData | undefined) ?? null,
  };
}

/** Frames as people read them: the most recent call first. */
export const newestFirst = (frames: Frame[]) => [...frames].reverse();
