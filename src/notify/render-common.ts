// What every rendering of a notification says, whatever the service: a title, a few lines, facts (name and value) and
// the link back. The renderers (render-*.ts) only give it each service's shape and limits. Chat messages are in
// English (a channel has no language of its own); e-mails are in the recipient's (render-email.ts).
import type { IssueTrigger, NotificationPayload } from "../storage/notification-ports";

export type Described = {
  title: string;
  /** Plain text lines under the title (the event's message, what happened). */
  lines: string[];
  facts: [string, string][];
  url: string;
  /** Sentry's level, or the metric alert's state: picks the colour. */
  severity: "fatal" | "error" | "warning" | "info" | "debug" | "resolved";
  /** ISO, when it happened. */
  timestamp: string | null;
  /** The link's label. */
  linkLabel: string;
};

/** Cuts `text` to at most `max` characters (code points kept whole), marking the cut with an ellipsis. */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  const chars = Array.from(text);
  if (chars.length <= max) return text;
  return `${chars.slice(0, Math.max(0, max - 1)).join("")}…`;
}

const TRIGGERS: Record<IssueTrigger, string> = {
  first_seen: "New issue",
  regression: "Regression",
  reappeared: "Issue escalating",
  event_frequency: "Frequent issue",
  user_frequency: "Issue affecting many users",
  assigned: "Issue assigned",
  comment: "New comment",
  test: "Test notification",
};

export const triggerLabel = (t: IssueTrigger) => TRIGGERS[t];

/** A message's first line, cut for a title (a feedback's text may run to many lines). */
export const firstLine = (text: string, max = 80) => truncate((text.split(/\r?\n/, 1)[0] ?? "").trim(), max);

const SEVERITIES = new Set(["fatal", "error", "warning", "info", "debug"]);

/** A RGB colour per severity (Sentry's palette: red for errors, yellow for warnings, blue for info, green resolved). */
export const SEVERITY_COLOURS: Record<Described["severity"], number> = {
  fatal: 0xd1_00_56,
  error: 0xe0_3e_2f,
  warning: 0xf5_b0_00,
  info: 0x2c_8c_e3,
  debug: 0x88_88_88,
  resolved: 0x2b_a1_85,
};

export function describe(payload: NotificationPayload): Described {
  if (payload.kind === "issue") {
    const { issue, event, project } = payload;
    const lines: string[] = [];
    if (event?.message && event.message !== issue.title) lines.push(event.message);
    if (issue.culprit) lines.push(issue.culprit);
    if (payload.actor) lines.push(`${payload.actor.name || payload.actor.email}${payload.text ? `: ${payload.text}` : ""}`);
    const facts: [string, string][] = [
      ["Project", project.name],
      ["Level", issue.level],
      ["Events", String(issue.count)],
      ["Users", String(issue.userCount)],
    ];
    if (event?.environment) facts.push(["Environment", event.environment]);
    if (event?.release) facts.push(["Release", event.release]);
    if (payload.ruleName) facts.push(["Alert rule", payload.ruleName]);
    return {
      title: `${triggerLabel(payload.trigger)}: ${issue.shortId} ${issue.title}`,
      lines,
      facts,
      url: payload.issueUrl,
      severity: SEVERITIES.has(issue.level) ? (issue.level as Described["severity"]) : "error",
      timestamp: event?.timestamp ?? issue.lastSeen,
      linkLabel: "View issue",
    };
  }
  if (payload.kind === "feedback") {
    // Chat channels may reach more people than the organization's members (shared or guest channels): they get the
    // name the person gave, never the contact e-mail, which the inbox, e-mail to members and the signed webhook carry.
    const { feedback: f, project, issue } = payload;
    const facts: [string, string][] = [["Project", project.name]];
    if (f.name) facts.push(["From", f.name]);
    if (f.url) facts.push(["URL", f.url]);
    if (f.environment) facts.push(["Environment", f.environment]);
    if (f.release) facts.push(["Release", f.release]);
    if (issue) facts.push(["Issue", `${issue.shortId} ${issue.title}`]);
    if (payload.ruleName) facts.push(["Alert rule", payload.ruleName]);
    return {
      title: `User feedback: ${firstLine(f.message) || project.name}`,
      lines: f.message ? [f.message] : [],
      facts,
      url: payload.feedbackUrl,
      severity: "info",
      timestamp: f.receivedAt,
      linkLabel: "View feedback",
    };
  }
  if (payload.kind === "metric") {
    const state = payload.status === "resolved" ? "Resolved" : payload.status === "critical" ? "Critical" : "Warning";
    const facts: [string, string][] = [
      ["Metric", payload.aggregate],
      ["Value", payload.value === null ? "no data" : String(payload.value)],
    ];
    if (payload.threshold !== null) facts.push(["Threshold", String(payload.threshold)]);
    facts.push(["Window", `${payload.timeWindow} min`]);
    if (payload.project) facts.push(["Project", payload.project.name]);
    return {
      title: `${state}: ${payload.ruleName}`,
      lines: [`${payload.aggregate} over ${payload.timeWindow} minutes in ${payload.organization.name}`],
      facts,
      url: payload.url,
      severity: payload.status === "resolved" ? "resolved" : payload.status === "critical" ? "error" : "warning",
      timestamp: null,
      linkLabel: "View alert",
    };
  }
  const facts: [string, string][] = [
    ["New issues", String(payload.newIssues)],
    ["Events", String(payload.events)],
  ];
  if (payload.crashFreeSessions !== null) facts.push(["Crash-free sessions", `${payload.crashFreeSessions} %`]);
  return {
    title: `Weekly summary of ${payload.organization.name}, ${payload.from} to ${payload.to}`,
    lines: payload.topIssues.map((i) => `${i.shortId} ${i.title} (${i.count})`),
    facts,
    url: payload.url,
    severity: "info",
    timestamp: null,
    linkLabel: "Open Faultline",
  };
}
