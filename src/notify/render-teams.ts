// Microsoft Teams through a workflow ("When a Teams webhook request is received"): a message whose one attachment is
// an Adaptive Card, `{"type":"message","attachments":[{"contentType":"application/vnd.microsoft.card.adaptive",
// "content":{…}}]}`. Card version 1.4 (what Teams renders); the whole message must stay under about 28 KB, so the text
// is capped well below it.
import { NOTIFICATION_LIMITS } from "../config/limits";
import type { NotificationPayload } from "../storage/notification-ports";
import { describe, truncate } from "./render-common";

const COLOURS = { fatal: "Attention", error: "Attention", warning: "Warning", info: "Accent", debug: "Default", resolved: "Good" } as const;

export function renderTeams(payload: NotificationPayload): { body: string } {
  const d = describe(payload);
  const budget = NOTIFICATION_LIMITS.teamsTextChars;
  const body: Record<string, unknown>[] = [
    { type: "TextBlock", text: truncate(d.title, 500), weight: "Bolder", size: "Medium", wrap: true, color: COLOURS[d.severity] },
  ];
  if (d.lines.length > 0) body.push({ type: "TextBlock", text: truncate(d.lines.join("\n\n"), budget), wrap: true });
  body.push({ type: "FactSet", facts: d.facts.map(([title, value]) => ({ title: truncate(title, 100), value: truncate(value, 500) })) });
  const card = {
    $schema: "http://adaptivecards.io/schemas/adaptive-card.json",
    type: "AdaptiveCard",
    version: "1.4",
    body,
    actions: [{ type: "Action.OpenUrl", title: d.linkLabel, url: d.url }],
  };
  const message = { type: "message", attachments: [{ contentType: "application/vnd.microsoft.card.adaptive", contentUrl: null, content: card }] };
  return { body: JSON.stringify(message) };
}
