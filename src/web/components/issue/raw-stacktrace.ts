// A stack trace as plain text, in the notation of the event's platform, as Sentry's "raw" view shows it: the
// exception's type and value, then one line per frame (most recent call first, except Python's traceback order).
import type { ExceptionValue, Frame } from "./event-view";

const has = (n: number | null): n is number => n !== null && n >= 0;
const where = (f: Frame) => f.filename ?? f.module ?? "?";
const position = (f: Frame) => `${has(f.lineNo) ? `:${f.lineNo}` : ""}${has(f.colNo) ? `:${f.colNo}` : ""}`;

function javascriptLine(f: Frame): string {
  return `  at ${f.function ?? "?"} (${where(f)}${position(f)})`;
}

function pythonLine(f: Frame): string {
  const place = f.filename !== null ? `File "${f.filename}"` : f.module !== null ? `Module "${f.module}"` : "?";
  let line = `  ${place}${has(f.lineNo) ? `, line ${f.lineNo}` : ""}${has(f.colNo) ? `, col ${f.colNo}` : ""}${f.function !== null ? `, in ${f.function}` : ""}`;
  const source = f.context.find(([n]) => n === f.lineNo);
  if (source) line += `\n    ${source[1].trim()}`;
  return line;
}

function javaLine(f: Frame): string {
  const file = f.filename !== null ? `(${f.filename}${has(f.lineNo) ? `:${f.lineNo}` : ""})` : "";
  return `    at ${f.module !== null ? `${f.module}.` : ""}${f.function ?? ""}${file}`;
}

function rubyLine(f: Frame): string {
  const place = f.filename ?? (f.module !== null ? `(${f.module})` : "?");
  return `  from ${place}${position(f)}${f.function !== null ? `:in \`${f.function}'` : ""}`;
}

const LINES: Record<string, (f: Frame) => string> = { javascript: javascriptLine, node: javascriptLine, python: pythonLine, java: javaLine, ruby: rubyLine };

/** The exception as text; `asSent`: the frames as the SDK sent them (before source maps), where they were changed. */
export function rawStacktrace(exception: ExceptionValue, platform: string, asSent = false): string {
  const frames = (asSent ? exception.rawStacktrace : null)?.frames ?? exception.stacktrace?.frames ?? [];
  const lines = frames.map((f) => (LINES[f.platform ?? platform] ?? pythonLine)(f));
  if (platform !== "python") lines.reverse();
  const head = `${platform === "java" && exception.module ? `${exception.module}.` : ""}${exception.type ?? "Error"}: ${exception.value ?? ""}`;
  return [head, ...lines].join("\n");
}
