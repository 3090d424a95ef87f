// The issue as Markdown for pasting into a ticket: title and link, culprit, first and last seen, the exception
// chain and the top in-app frames of the outermost exception. Every text that came with an event (title, culprit,
// release, exception type and value, file and function names) is a code span (web/markdown.ts), so a pasted summary
// never shows an image, a link or HTML an event chose.
import { codeSpan } from "../../markdown";
import { type ExceptionValue, type Frame, newestFirst } from "./event-view";

/** frames; how many in-app frames the summary lists, enough to locate the bug without pasting the whole trace. */
const TOP_FRAMES = 5;

export type MarkdownLabels = {
  culprit: string;
  firstSeen: string;
  lastSeen: string;
  events: string;
  users: string;
  exception: string;
  causedBy: string;
  frames: string;
};
export type MarkdownInput = {
  shortId: string;
  title: string;
  url: string;
  culprit: string;
  firstSeen: string;
  firstRelease: string | null;
  lastSeen: string;
  lastRelease: string | null;
  events: number;
  users: number;
  exceptions: ExceptionValue[];
};

/** Timestamps are the issue's own columns (ISO 8601); anything else is shown as code all the same. */
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z$/;
const time = (at: string) => (ISO_TIME.test(at) ? at : codeSpan(at));
const seen = (at: string, release: string | null) => `${time(at)}${release ? ` (${codeSpan(release)})` : ""}`;
const count = (n: number) => (Number.isFinite(n) ? String(n) : "?");
const line = (n: number | null) => (typeof n === "number" && Number.isFinite(n) ? `:${n}` : "");

function frameLine(f: Frame): string {
  return `- ${codeSpan(f.function ?? "?")} in ${codeSpan(`${f.filename ?? f.module ?? "?"}${line(f.lineNo)}${line(f.colNo)}`)}`;
}

function exceptionLine(e: ExceptionValue): string {
  const value = e.value === null || e.value === undefined || e.value === "" ? "" : `: ${codeSpan(e.value)}`;
  return `**${codeSpan(e.type ?? "Error")}**${value}`;
}

export function issueMarkdown(i: MarkdownInput, l: MarkdownLabels): string {
  const lines = [`## [${i.shortId}] ${codeSpan(i.title)}`, "", i.url, ""];
  if (i.culprit) lines.push(`**${l.culprit}:** ${codeSpan(i.culprit)}  `);
  lines.push(
    `**${l.firstSeen}:** ${seen(i.firstSeen, i.firstRelease)}  `,
    `**${l.lastSeen}:** ${seen(i.lastSeen, i.lastRelease)}  `,
    `**${l.events}:** ${count(i.events)} · **${l.users}:** ${count(i.users)}`,
  );
  const [top, ...causes] = i.exceptions;
  if (top) {
    lines.push("", `### ${l.exception}`, "", `${exceptionLine(top)}  `);
    for (const c of causes) lines.push(`${l.causedBy} ${exceptionLine(c)}  `);
    const frames = newestFirst(top.stacktrace?.frames ?? [])
      .filter((f) => f.inApp)
      .slice(0, TOP_FRAMES);
    if (frames.length > 0) lines.push("", `${l.frames}:`, "", ...frames.map(frameLine));
  }
  return `${lines.join("\n")}\n`;
}
