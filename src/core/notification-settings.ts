// Personal notification settings (the account page's "Notifications"): language and time zone of what Faultline
// sends, workflow notices on or off, e-mail alerts per project and the weekly summary per organization of the
// person's own organizations. Each change names a project or organization the person is a member of, or is not found.
import { z } from "zod";
import { API_LIMITS, PERSONAL_NOTIFICATION_LIMITS } from "../config/limits";
import { NOTIFICATION_LOCALES, type UserNotificationSettings } from "../storage/notification-settings-ports";
import type { Organization, Project } from "../storage/ports";
import { getOrgAccess, requireId } from "./access";
import { actingUser, type CoreContext } from "./context";
import { notFound } from "./errors";
import { everyPage } from "./pagination";
import { parseInput } from "./schemas";

/** The IANA zones this runtime knows (Intl), and UTC, which Intl lists under no region. */
export function timeZones(): string[] {
  return ["UTC", ...Intl.supportedValuesOf("timeZone")];
}

export function isTimeZone(value: string): boolean {
  return value === "UTC" || Intl.supportedValuesOf("timeZone").includes(value);
}

const onOff = z.enum(["on", "off"], { error: "Choose on or off" }).transform((v) => v === "on");

const personalSchema = z.object({
  locale: z.enum(["", ...NOTIFICATION_LOCALES], { error: "Choose English or German" }).transform((v) => (v === "" ? null : v)),
  timeZone: z
    .string({ error: "Choose a time zone" })
    .max(PERSONAL_NOTIFICATION_LIMITS.timeZoneMaxLength, "Choose a time zone")
    .refine((v) => v === "" || isTimeZone(v), "Unknown time zone")
    .transform((v) => (v === "" || v === "UTC" ? null : v)),
  workflow: onOff,
});

export type AccountNotifications = {
  settings: UserNotificationSettings;
  organizations: { org: Organization; weeklySummary: boolean; projects: { project: Project; email: boolean }[] }[];
};

/** The person's settings with every organization they are a member of and its projects. */
export async function getAccountNotifications(ctx: CoreContext): Promise<AccountNotifications> {
  const user = actingUser(ctx);
  const member = await everyPage((page) => ctx.store.listOrganizations({ userId: user.id, all: false, page }), API_LIMITS.maxPageSize);
  // An organization that requires two-factor, of a person without it, sends them nothing and shows them nothing.
  const barred = member.some((o) => o.requireTwoFactor) && !(await ctx.store.userHasTwoFactor(user.id));
  const orgs = barred ? member.filter((o) => !o.requireTwoFactor) : member;
  const projects =
    orgs.length === 0
      ? []
      : await everyPage((page) => ctx.store.listProjects({ scope: { organizationIds: orgs.map((o) => o.id) }, page }), API_LIMITS.maxPageSize);
  const [settings, email, summary] = await Promise.all([
    ctx.store.getUserNotificationSettings(user.id),
    ctx.store.projectEmailSettings(
      user.id,
      projects.map((p) => p.id),
    ),
    ctx.store.weeklySummarySettings(
      user.id,
      orgs.map((o) => o.id),
    ),
  ]);
  return {
    settings,
    organizations: orgs.map((org) => ({
      org,
      weeklySummary: summary.get(org.id) ?? true,
      projects: projects.filter((p) => p.organizationId === org.id).map((project) => ({ project, email: email.get(project.id) ?? true })),
    })),
  };
}

export async function updatePersonalNotifications(ctx: CoreContext, body: unknown): Promise<UserNotificationSettings> {
  const user = actingUser(ctx);
  const input = parseInput(personalSchema, body);
  const settings: UserNotificationSettings = { locale: input.locale, timeZone: input.timeZone, workflow: input.workflow };
  await ctx.store.setUserNotificationSettings(user.id, settings, new Date().toISOString());
  return settings;
}

/** The organization, if the acting person is a member of it (a superuser who is not gets not found). */
async function ownOrganization(ctx: CoreContext, orgSlug: string): Promise<Organization> {
  const access = await getOrgAccess(ctx, orgSlug);
  if (access.memberId === null) throw notFound("Organization");
  return access.org;
}

export async function setProjectEmailAlerts(ctx: CoreContext, projectId: unknown, body: unknown): Promise<void> {
  const user = actingUser(ctx);
  const project = await ctx.store.getProjectById(requireId(projectId, "Project"));
  const org = project ? await ctx.store.getOrganizationById(project.organizationId) : null;
  if (!project || !org) throw notFound("Project");
  try {
    await ownOrganization(ctx, org.slug);
  } catch {
    throw notFound("Project");
  }
  const { email } = parseInput(z.object({ email: onOff }), body);
  await ctx.store.setProjectEmail(user.id, project.id, email);
}

export async function setWeeklySummary(ctx: CoreContext, orgSlug: string, body: unknown): Promise<void> {
  const user = actingUser(ctx);
  const org = await ownOrganization(ctx, orgSlug);
  const { weeklySummary } = parseInput(z.object({ weeklySummary: onOff }), body);
  await ctx.store.setWeeklySummary(user.id, org.id, weeklySummary);
}
