// Text from events inside Markdown that people paste into tickets and chats. Event text is written by whoever holds a
// DSN, so none of it may become Markdown: every such text goes into a CommonMark code span, where nothing is read as
// emphasis, a link, an image, an autolink or HTML (CommonMark 0.31, "Code spans"; GitHub's bare-URL autolinks do not
// apply inside code either).

/** Line endings as CommonMark knows them; a code span may not hold one (a blank line would end it, and the paragraph). */
const LINE_ENDINGS = /\r\n|\r|\n/g;
const BACKTICK_RUNS = /`+/g;

/**
 * `text` as one inline code span that shows it as it is. The fence is one backtick longer than the longest run of
 * backticks inside, so no run closes it early; line endings become spaces (what CommonMark renders them as in a code
 * span anyway), so the span cannot be cut off by a blank line or a line that starts a block. A space pads the inside
 * when the text starts or ends with a backtick or a space (unless it is only spaces, which CommonMark keeps as they
 * are), and CommonMark strips exactly that padding again.
 */
export function codeSpan(text: unknown): string {
  const flat = String(text ?? "").replace(LINE_ENDINGS, " ");
  if (flat === "") return "` `";
  let longest = 0;
  for (const run of flat.match(BACKTICK_RUNS) ?? []) longest = Math.max(longest, run.length);
  const fence = "`".repeat(longest + 1);
  const pad = /^[` ]|[` ]$/.test(flat) && !/^ *$/.test(flat) ? " " : "";
  return `${fence}${pad}${flat}${pad}${fence}`;
}
