// The issue as Markdown for pasting into a ticket: title and link, culprit, first and last seen, the exception
// chain and the top in-app frames of the outermost exception.
import { type ExceptionValue, type Frame, newestFirst } from "./event-view";

/** frames; how many in-app frames the summary lists, enough to locate the bug without pasting the whole trace. */
const TOP_FRAMES = 5;

export type MarkdownLabels = { culprit: string; firstSeen: string; lastSeen: string; events: string; users: string; exception: string; causedBy: string; frames: string };
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

const seen = (at: string, release: string | null) => `${at}${release ? ` (${release})` : ""}`;
const inline = (s: string) => `\`${s.replace(/`/g, "'")}\``;

function frameLine(f: Frame): string {
  const place = `${f.filename ?? f.module ?? "?"}${f.lineNo !== null ? `:${f.lineNo}` : ""}${f.colNo !== null ? `:${f.colNo}` : ""}`;
  return `- ${inline(f.function ?? "?")} in ${inline(place)}`;
}

export function issueMarkdown(i: MarkdownInput, l: MarkdownLabels): string {
  const lines = [`## [${i.shortId}] ${i.title}`, "", i.url, ""];
  if (i.culprit) lines.push(`**${l.culprit}:** ${inline(i.culprit)}  `);
  lines.push(`**${l.firstSeen}:** ${seen(i.firstSeen, i.firstRelease)}  `, `**${l.lastSeen}:** ${seen(i.lastSeen, i.lastRelease)}  `, `**${l.events}:** ${i.events} · **${l.users}:** ${i.users}`);
  const [top, ...causes] = i.exceptions;
  if (top) {
    lines.push("", `### ${l.exception}`, "", `**${top.type ?? "Error"}**: ${top.value ?? ""}`);
    for (const c of causes) lines.push(`${l.causedBy} **${c.type ?? "Error"}**: ${c.value ?? ""}`);
    const frames = newestFirst(top.stacktrace?.frames ?? []).filter((f) => f.inApp).slice(0, TOP_FRAMES);
    if (frames.length > 0) lines.push("", `${l.frames}:`, "", ...frames.map(frameLine));
  }
  return `${lines.join("\n")}\n`;
}
