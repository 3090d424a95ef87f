// Slack's incoming webhooks take a message of Block Kit blocks, with `text` as the notification's fallback: a header
// (plain text, at most 150 characters), sections of mrkdwn (at most 3000 each, fields at most 2000 and 10 of them), a
// context line and a button to the issue. Text from events is escaped as Slack asks (&, < and > as entities), so an
// event cannot mention @channel or forge a link.
import { NOTIFICATION_LIMITS } from "../config/limits";
import type { NotificationPayload } from "../storage/notification-ports";
import { describe, truncate } from "./render-common";

const escape = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** Slack: a button's label is at most 75 characters, its URL at most 3000; a section field at most 2000. */
const BUTTON_CHARS = 75;
const FIELD_CHARS = 2000;
const MAX_FIELDS = 10;

export function renderSlack(payload: NotificationPayload): { body: string } {
  const d = describe(payload);
  const blocks: Record<string, unknown>[] = [
    { type: "header", text: { type: "plain_text", text: truncate(d.title, NOTIFICATION_LIMITS.slackHeaderChars), emoji: false } },
  ];
  if (d.lines.length > 0) {
    const text = truncate(d.lines.map(escape).join("\n"), NOTIFICATION_LIMITS.slackSectionChars);
    blocks.push({ type: "section", text: { type: "mrkdwn", text } });
  }
  blocks.push({
    type: "section",
    fields: d.facts.slice(0, MAX_FIELDS).map(([name, value]) => ({ type: "mrkdwn", text: truncate(`*${escape(name)}*\n${escape(value)}`, FIELD_CHARS) })),
  });
  if (d.url.length <= 3000) {
    blocks.push({ type: "actions", elements: [{ type: "button", text: { type: "plain_text", text: truncate(d.linkLabel, BUTTON_CHARS) }, url: d.url }] });
  }
  // The fallback text is mrkdwn too (it shows in notifications): escaped like the sections, so a title taken from an
  // event or a feedback's first line cannot mention @channel there either.
  const message = { text: truncate(escape(d.title), NOTIFICATION_LIMITS.slackSectionChars), blocks };
  return { body: JSON.stringify(message) };
}
