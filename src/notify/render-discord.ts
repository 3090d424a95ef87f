// Discord's "execute webhook" body: one embed (title at most 256 characters, description 4096, at most 25 fields of
// name 256 and value 1024, footer 2048, all of a message's embeds together 6000), a colour, the link and the time.
// `allowed_mentions` with no parse types: text from events can never ping @everyone or a role.
import { NOTIFICATION_LIMITS } from "../config/limits";
import type { NotificationPayload } from "../storage/notification-ports";
import { SEVERITY_COLOURS, describe, truncate } from "./render-common";

const FIELD_NAME_CHARS = 256;
const MAX_FIELDS = 25;
const FOOTER = "Faultline";

export function renderDiscord(payload: NotificationPayload): { body: string } {
  const d = describe(payload);
  const title = truncate(d.title, NOTIFICATION_LIMITS.discordTitleChars);
  const fields = d.facts.slice(0, MAX_FIELDS).map(([name, value]) => ({
    name: truncate(name, FIELD_NAME_CHARS),
    value: truncate(value || "-", NOTIFICATION_LIMITS.discordFieldChars),
    inline: true,
  }));
  const used = title.length + FOOTER.length + fields.reduce((n, f) => n + f.name.length + f.value.length, 0);
  const room = Math.min(NOTIFICATION_LIMITS.discordDescriptionChars, NOTIFICATION_LIMITS.discordTotalChars - used);
  const embed: Record<string, unknown> = {
    title,
    url: d.url,
    color: SEVERITY_COLOURS[d.severity],
    fields,
    footer: { text: FOOTER },
  };
  if (d.lines.length > 0 && room > 1) embed.description = truncate(d.lines.join("\n"), room);
  if (d.timestamp) embed.timestamp = d.timestamp;
  return { body: JSON.stringify({ embeds: [embed], allowed_mentions: { parse: [] } }) };
}
