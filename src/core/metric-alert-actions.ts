// The actions of a metric alert's triggers: Sentry's action ids and Faultline's shapes (storage/notification-ports.ts
// NotificationAction), the same as issue alert rules take. Checked when a rule is saved: an e-mail names a member or
// a team of the organization, and a webhook URL passes the sender's check (core/alert-rule-urls.ts, notify/http.ts:
// http(s), public addresses unless the instance allows the host); delivery checks the address again when it sends,
// since a name can resolve differently later.
import { z } from "zod";
import { METRIC_ALERT_LIMITS } from "../config/limits";
import { parseAllowedHosts } from "../notify/allowed-hosts";
import type { NotificationAction } from "../storage/notification-ports";
import { DISCORD_ACTION, EMAIL_ACTION, SLACK_ACTION, TEAMS_ACTION, WEBHOOK_ACTION } from "../storage/notification-ports";
import type { Store } from "../storage/ports";
import { webhookUrlProblem } from "./alert-rule-urls";
import { AppError } from "./errors";

const url = z
  .string({ error: "Enter the webhook's URL" })
  .trim()
  .min(1, "Enter the webhook's URL")
  .max(METRIC_ALERT_LIMITS.maxUrlLength, `At most ${METRIC_ALERT_LIMITS.maxUrlLength} characters`);
const identifier = z.union([z.string().trim().min(1).max(200), z.number().int().positive().max(2_147_483_647)], { error: "Name the member or team" });

export const actionSchema = z.discriminatedUnion(
  "id",
  [
    z.object({
      id: z.literal(EMAIL_ACTION),
      targetType: z.enum(["Team", "Member"], { error: "E-mail a team or a member (a metric alert has no issue to take owners from)" }),
      targetIdentifier: identifier,
    }),
    z.object({ id: z.literal(WEBHOOK_ACTION), service: z.literal("webhooks").default("webhooks"), url }),
    z.object({ id: z.literal(SLACK_ACTION), webhookUrl: url }),
    z.object({ id: z.literal(DISCORD_ACTION), webhookUrl: url }),
    z.object({ id: z.literal(TEAMS_ACTION), webhookUrl: url }),
  ],
  { error: "Unknown action id" },
);

export type RuleAction = z.output<typeof actionSchema>;

/** Checks each trigger's actions against the organization and the network; throws a 400 naming the field. */
export async function checkActions(store: Store, organizationId: number, triggers: { actions: RuleAction[] }[]): Promise<NotificationAction[][]> {
  const fields: Record<string, string[]> = {};
  const allowedHosts = parseAllowedHosts(await store.getAllowedHostsSetting());
  const out: NotificationAction[][] = [];
  for (const [ti, trigger] of triggers.entries()) {
    const actions: NotificationAction[] = [];
    for (const [ai, a] of trigger.actions.entries()) {
      const field = `triggers.${ti}.actions.${ai}`;
      if (a.id === EMAIL_ACTION) {
        const known =
          a.targetType === "Member"
            ? (await store.getMembership(organizationId, String(a.targetIdentifier))) !== null
            : /^\d{1,10}$/.test(String(a.targetIdentifier)) && (await store.getTeamById(organizationId, Number(a.targetIdentifier))) !== null;
        if (!known)
          (fields[`${field}.targetIdentifier`] ??= []).push(
            a.targetType === "Member" ? "Not a member of this organization" : "No such team in this organization",
          );
        actions.push({ id: EMAIL_ACTION, targetType: a.targetType, targetIdentifier: a.targetIdentifier });
        continue;
      }
      const target = a.id === WEBHOOK_ACTION ? a.url : a.webhookUrl;
      const problem = await webhookUrlProblem(target, { allowedHosts });
      if (problem) (fields[`${field}.${a.id === WEBHOOK_ACTION ? "url" : "webhookUrl"}`] ??= []).push(problem);
      actions.push(a);
    }
    out.push(actions);
  }
  if (Object.keys(fields).length > 0) {
    const summary = Object.entries(fields)
      .map(([k, v]) => `${k}: ${v.join("; ")}`)
      .join("; ");
    throw new AppError("bad_request", summary, fields, true);
  }
  return out;
}
