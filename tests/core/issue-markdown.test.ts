// "Copy as Markdown": the summary's layout, and that no text an event brought (title, culprit, releases, exception
// types and values, file, module and function names) becomes an image, a link or HTML once the Markdown is rendered.
// Rendered by markdown-it (CommonMark, with raw HTML on and GitHub-style bare-URL links, as the most permissive
// renderer a ticket system may use).
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fc from "fast-check";
import MarkdownIt from "markdown-it";
import type { Token } from "markdown-it";
import type { ExceptionValue, Frame } from "../../src/web/components/issue/event-view";
import { issueMarkdown, type MarkdownInput } from "../../src/web/components/issue/issue-markdown";
import { codeSpan } from "../../src/web/markdown";

const LABELS = {
  culprit: "Culprit",
  firstSeen: "First seen",
  lastSeen: "Last seen",
  events: "Events",
  users: "Users",
  exception: "Exception",
  causedBy: "Caused by",
  frames: "Top frames",
};
const URL_OF_ISSUE = "https://faultline.example/en/orgs/o/issues/7";
const renderer = new MarkdownIt({ html: true, linkify: true });

const frame = (over: Partial<Frame>): Frame => ({
  filename: null,
  absPath: null,
  module: null,
  function: null,
  platform: null,
  lineNo: null,
  colNo: null,
  inApp: true,
  context: [],
  vars: null,
  ...over,
});
const exception = (over: Partial<ExceptionValue>): ExceptionValue => ({
  type: "TypeError",
  value: "no card",
  module: null,
  mechanism: null,
  stacktrace: null,
  ...over,
});

function flatten(tokens: Token[]): Token[] {
  return tokens.flatMap((t) => [t, ...flatten(t.children ?? [])]);
}

/** What rendering makes of it: every token, and the texts shown as code, in order. */
function render(markdown: string) {
  const tokens = flatten(renderer.parse(markdown, {}));
  return { tokens, code: tokens.filter((t) => t.type === "code_inline").map((t) => t.content) };
}

/** The live things a pasted summary may hold: only the issue's own link. */
function assertNothingLive(markdown: string): void {
  for (const t of render(markdown).tokens) {
    assert.ok(!["image", "html_inline", "html_block"].includes(t.type), `${t.type} in:\n${markdown}`);
    if (t.type === "link_open") assert.equal(t.attrGet("href"), URL_OF_ISSUE, `a link in:\n${markdown}`);
  }
}

/** How a code span shows the text: line endings as spaces, NUL as U+FFFD (CommonMark's replacement). */
const shown = (s: string) => s.replace(/\r\n|\r|\n/g, " ").replace(/\0/g, "\uFFFD");

test("Markdown: title and link, seen with releases, the chain and the top in-app frames", () => {
  const frames = [
    frame({ filename: "node:internal/timers", function: "listOnTimeout", lineNo: 581, colNo: 17, inApp: false }),
    frame({ filename: "app/cart.js", function: "checkout", lineNo: 12, colNo: 5 }),
    frame({ filename: "app/pay.js", function: null, lineNo: 3, colNo: null }),
  ];
  const md = issueMarkdown(
    {
      shortId: "SHOP-7",
      title: "TypeError: no card",
      url: URL_OF_ISSUE,
      culprit: "checkout",
      firstSeen: "2026-11-20T10:00:00.000Z",
      firstRelease: "1.0.0",
      lastSeen: "2026-11-23T10:00:00.000Z",
      lastRelease: null,
      events: 4,
      users: 2,
      exceptions: [exception({ stacktrace: { frames, hasSystemFrames: true } }), exception({ type: "Error", value: "card service down" })],
    },
    LABELS,
  );
  assert.equal(
    md,
    [
      "## [SHOP-7] `TypeError: no card`",
      "",
      URL_OF_ISSUE,
      "",
      "**Culprit:** `checkout`  ",
      "**First seen:** 2026-11-20T10:00:00.000Z (`1.0.0`)  ",
      "**Last seen:** 2026-11-23T10:00:00.000Z  ",
      "**Events:** 4 · **Users:** 2",
      "",
      "### Exception",
      "",
      "**`TypeError`**: `no card`  ",
      "Caused by **`Error`**: `card service down`  ",
      "",
      "Top frames:",
      "",
      "- `?` in `app/pay.js:3`",
      "- `checkout` in `app/cart.js:12:5`",
      "",
    ].join("\n"),
  );
  assertNothingLive(md);
});

describe("code spans (CommonMark)", () => {
  const cases: [string, string][] = [
    ["plain", "`plain`"],
    ["a `tick` inside", "``a `tick` inside``"],
    ["``double`` and `single`", "``` ``double`` and `single` ```"],
    ["`starts with one", "`` `starts with one ``"],
    ["ends with two``", "``` ends with two`` ```"],
    [" padded ", "`  padded  `"],
    ["line\nbreak\r\nand\rreturn", "`line break and return`"],
    ["", "` `"],
  ];
  for (const [text, span] of cases) {
    test(`${JSON.stringify(text)} → ${span}, shown as it is`, () => {
      assert.equal(codeSpan(text), span);
      assert.deepEqual(render(`x ${codeSpan(text)} y`).code, [text === "" ? " " : shown(text)]);
    });
  }
});

test("hostile input #13: an issue's title, culprit, release and exception are shown as code, never as an image, a link or HTML", () => {
  const md = issueMarkdown(
    {
      shortId: "SHOP-7",
      title: "![](https://attacker.example/t.png)",
      url: URL_OF_ISSUE,
      culprit: "[click](https://attacker.example/phish) `x`\n\n<img src=x onerror=alert(1)>",
      firstSeen: "2026-11-20T10:00:00.000Z",
      firstRelease: "<https://attacker.example/autolink>",
      lastSeen: "2026-11-23T10:00:00.000Z",
      lastRelease: "www.attacker.example",
      events: 1,
      users: 1,
      exceptions: [
        exception({
          type: "<script>alert(1)</script>",
          value: "see https://attacker.example/x and mail me@attacker.example\n\n[ref]: https://attacker.example",
          stacktrace: {
            frames: [frame({ filename: "``` </code>![a](https://attacker.example/f.png)", function: "[fn](https://attacker.example)", lineNo: 1, colNo: 2 })],
            hasSystemFrames: false,
          },
        }),
        exception({ type: "Error", value: "```\n<iframe src=https://attacker.example>" }),
      ],
    },
    LABELS,
  );
  assertNothingLive(md);
  assert.deepEqual(render(md).code, [
    "![](https://attacker.example/t.png)",
    shown("[click](https://attacker.example/phish) `x`\n\n<img src=x onerror=alert(1)>"),
    "<https://attacker.example/autolink>",
    "www.attacker.example",
    "<script>alert(1)</script>",
    shown("see https://attacker.example/x and mail me@attacker.example\n\n[ref]: https://attacker.example"),
    "Error",
    shown("```\n<iframe src=https://attacker.example>"),
    "[fn](https://attacker.example)",
    "``` </code>![a](https://attacker.example/f.png):1:2",
  ]);
});

/** Pieces that start Markdown and HTML constructs, mixed with any text at all. */
const PIECES = [
  "`",
  "``",
  "```",
  "~~~",
  "![",
  "[",
  "]",
  "(",
  ")",
  "](",
  "<",
  ">",
  "</",
  "!",
  "*",
  "**",
  "_",
  "#",
  "## ",
  "|",
  "-",
  "---",
  "+",
  "1. ",
  ":",
  "\\",
  "&",
  "&lt;",
  "&#60;",
  "&#x3C;",
  '"',
  "'",
  "\n",
  "\r",
  "\r\n",
  "\n\n",
  " ",
  "    ",
  "\t",
  "\0",
  "x",
  "é",
  "http://attacker.example/t.png",
  "https://attacker.example",
  "www.attacker.example",
  "me@attacker.example",
  "mailto:me@attacker.example",
  "javascript:alert(1)",
  "<img src=x onerror=alert(1)>",
  "<script>",
  "<!-- ",
  "<?php",
  "<![CDATA[",
  "<http://attacker.example>",
  "<me@attacker.example>",
  "[x]: http://attacker.example",
  "[x]",
  "[x][]",
];
const hostile = fc
  .array(fc.oneof(fc.constantFrom(...PIECES), fc.string({ maxLength: 4 }), fc.string({ unit: "grapheme", maxLength: 3 })), { maxLength: 24 })
  .map((parts) => parts.join(""));
const hostileFrame = fc
  .record({ filename: fc.option(hostile), module: fc.option(hostile), function: fc.option(hostile), lineNo: fc.option(fc.nat()), colNo: fc.option(fc.nat()) })
  .map((f) => frame(f));
const hostileException = fc
  .record({ type: fc.option(hostile), value: fc.option(hostile), frames: fc.array(hostileFrame, { maxLength: 3 }) })
  .map(({ frames, ...e }) => exception({ ...e, stacktrace: { frames, hasSystemFrames: false } }));
const hostileIssue: fc.Arbitrary<MarkdownInput> = fc.record({
  shortId: fc.constantFrom("SHOP-7", "A-1", "MY_APP-1234"),
  title: hostile,
  url: fc.constant(URL_OF_ISSUE),
  culprit: hostile,
  firstSeen: fc.oneof(fc.constant("2026-11-20T10:00:00.000Z"), hostile),
  firstRelease: fc.option(hostile),
  lastSeen: fc.oneof(fc.constant("2026-11-23T10:00:00.000Z"), hostile),
  lastRelease: fc.option(hostile),
  events: fc.nat(),
  users: fc.nat(),
  exceptions: fc.array(hostileException, { maxLength: 3 }),
});

test("hostile input #13: no event text, however built, renders as an image, a link or HTML, and each shows whole in its code span", () => {
  fc.assert(
    fc.property(hostileIssue, (issue) => {
      const md = issueMarkdown(issue, LABELS);
      assertNothingLive(md);
      const [top, ...causes] = issue.exceptions;
      const expected = [issue.title, ...(issue.culprit ? [issue.culprit] : [])];
      for (const [at, release] of [
        [issue.firstSeen, issue.firstRelease],
        [issue.lastSeen, issue.lastRelease],
      ] as const) {
        if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z$/.test(at)) expected.push(at);
        if (release) expected.push(release);
      }
      for (const e of top ? [top, ...causes] : []) expected.push(e.type ?? "Error", ...(e.value ? [e.value] : []));
      for (const f of [...(top?.stacktrace?.frames ?? [])].reverse().slice(0, 5)) {
        expected.push(f.function ?? "?", `${f.filename ?? f.module ?? "?"}${f.lineNo !== null ? `:${f.lineNo}` : ""}${f.colNo !== null ? `:${f.colNo}` : ""}`);
      }
      assert.deepEqual(
        render(md).code,
        expected.map((s) => (s === "" ? " " : shown(s))),
      );
    }),
    { numRuns: 2000, seed: 1613 },
  );
});
