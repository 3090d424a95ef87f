// The strategies of the newstyle configs, each turning one interface of the event into grouping
// components by variant: chained/single exception, threads, top-level stacktrace, template and
// message (getsentry/sentry src/sentry/grouping/strategies/newstyle.py `single_exception`,
// `chained_exception`, `threads`; template.py; message.py `message_v1`).
import { component, update, type GroupingComponent } from "./component";
import type { StrategyContext, VariantMap } from "./context";
import { normalizeMessageForGrouping } from "./message";
import type { GException, GFrame, GLogentry } from "./normalize";
import { stacktraceVariants } from "./stacktrace";

export function singleExceptionVariants(exc: GException, ctx: StrategyContext): VariantMap {
  const type = component("type", { values: exc.type !== null ? [exc.type] : [] });
  let nsError: GroupingComponent | null = null;
  if (exc.synthetic) update(type, { contributes: false, hint: "ignored because exception is synthetic" });
  if (exc.nsError !== null) {
    const v = (x: unknown): string => (x === null || x === undefined ? "None" : String(x));
    nsError = component("ns-error", { values: [v(exc.nsError.domain), v(exc.nsError.code)] });
  }
  const stacktraces: VariantMap = exc.frames !== null ? stacktraceVariants(exc.frames, ctx) : new Map([["app", component("stacktrace")]]);

  const rv: VariantMap = new Map();
  for (const [variant, st] of stacktraces) {
    const values: GroupingComponent[] = [st, type];
    if (nsError !== null) values.push(nsError);
    const value = component("value");
    if (exc.value !== null) {
      const trimmed = normalizeMessageForGrouping(exc.value);
      if (trimmed) update(value, { values: [trimmed], hint: trimmed !== exc.value ? "stripped event-specific values" : undefined });
    }
    if (st.contributes && value.contributes) {
      update(value, { contributes: false, hint: "ignored because stacktrace takes precedence" });
    }
    if (nsError !== null && nsError.contributes && value.contributes) {
      update(value, { contributes: false, hint: "ignored because ns-error info takes precedence" });
    }
    values.push(value);
    rv.set(variant, component("exception", { values }));
  }
  return rv;
}

export function chainedExceptionVariants(exceptions: readonly GException[], ctx: StrategyContext): VariantMap | null {
  const [only] = exceptions;
  if (only === undefined) return null;
  if (exceptions.length === 1) return singleExceptionVariants(only, ctx);
  const byName = new Map<string, GroupingComponent[]>();
  for (const exc of exceptions) {
    for (const [name, c] of singleExceptionVariants(exc, ctx)) {
      const list = byName.get(name) ?? [];
      list.push(c);
      byName.set(name, list);
    }
  }
  const rv: VariantMap = new Map();
  for (const [name, list] of byName) rv.set(name, component("chained-exception", { values: list }));
  return rv;
}

export function threadsVariants(threads: ReadonlyArray<{ frames: GFrame[] | null }>, ctx: StrategyContext): VariantMap {
  const [only] = threads;
  if (threads.length !== 1 || only === undefined) {
    const hint = `ignored because contains ${threads.length} threads`;
    return new Map([["app", component("threads", { contributes: false, hint })]]);
  }
  if (only.frames === null) {
    return new Map([["app", component("threads", { contributes: false, hint: "thread has no stacktrace" })]]);
  }
  const rv: VariantMap = new Map();
  for (const [name, st] of stacktraceVariants(only.frames, ctx)) rv.set(name, component("threads", { values: [st] }));
  return rv;
}

export function templateVariants(filename: string | null, contextLine: string | null): VariantMap {
  const f = component("filename", filename !== null ? { values: [filename] } : {});
  const cl = component("context-line", contextLine !== null ? { values: [contextLine] } : {});
  return new Map([["default", component("template", { values: [f, cl] })]]);
}

export function messageVariants(logentry: GLogentry): VariantMap {
  const raw = logentry.message ?? logentry.formatted ?? "";
  const normalized = normalizeMessageForGrouping(raw);
  const hint = raw !== normalized ? "stripped event-specific values" : undefined;
  return new Map([["default", component("message", { values: [normalized], hint })]]);
}
