// The e-mail of a notification: subject, plain-text and HTML parts, in the recipient's language (en, de), with the
// link back and a footer saying why the person got it and how to stop it.
import { NOTIFICATION_LIMITS } from "../config/limits";
import type { IssueTrigger, NotificationPayload, NotificationSource } from "../storage/notification-ports";
import { firstLine, truncate } from "./render-common";

export type RenderedMail = { subject: string; text: string; html: string };

type Strings = {
  triggers: Record<IssueTrigger, string>;
  metric: Record<"critical" | "warning" | "resolved", string>;
  summary: (org: string, from: string, to: string) => string;
  feedback: { subject: string; from: string; url: string; issue: string; anonymous: string; openIssue: string };
  facts: {
    project: string;
    level: string;
    events: string;
    users: string;
    environment: string;
    release: string;
    rule: string;
    metric: string;
    value: string;
    threshold: string;
    window: string;
    newIssues: string;
    crashFree: string;
    noData: string;
  };
  open: string;
  why: Record<NotificationSource, string>;
  stop: string;
};

const STRINGS: Record<"en" | "de", Strings> = {
  en: {
    triggers: {
      first_seen: "New issue",
      regression: "Regression",
      reappeared: "Issue escalating",
      event_frequency: "Frequent issue",
      user_frequency: "Issue affecting many users",
      assigned: "Issue assigned to you",
      comment: "New comment",
      test: "Test notification",
    },
    metric: { critical: "Critical", warning: "Warning", resolved: "Resolved" },
    summary: (org, from, to) => `Weekly summary of ${org}, ${from} to ${to}`,
    feedback: { subject: "New user feedback", from: "From", url: "URL", issue: "Issue", anonymous: "(no name given)", openIssue: "The issue" },
    facts: {
      project: "Project",
      level: "Level",
      events: "Events",
      users: "Users",
      environment: "Environment",
      release: "Release",
      rule: "Alert rule",
      metric: "Metric",
      value: "Value",
      threshold: "Threshold",
      window: "Window (minutes)",
      newIssues: "New issues",
      crashFree: "Crash-free sessions",
      noData: "no data",
    },
    open: "Open in Faultline",
    why: {
      issue_rule: "You got this e-mail because an alert rule of this project notifies you.",
      metric_alert: "You got this e-mail because a metric alert of your organization notifies you.",
      workflow: "You got this e-mail because you take part in this issue.",
      weekly_summary: "You got this e-mail because you receive the weekly summary of this organization.",
      test: "You got this e-mail because someone sent a test notification.",
    },
    stop: "To stop these e-mails, change the alert rule or your notification settings in your account.",
  },
  de: {
    triggers: {
      first_seen: "Neues Problem",
      regression: "Regression",
      reappeared: "Problem eskaliert",
      event_frequency: "Häufiges Problem",
      user_frequency: "Problem betrifft viele Nutzer",
      assigned: "Ihnen zugewiesenes Problem",
      comment: "Neuer Kommentar",
      test: "Testbenachrichtigung",
    },
    metric: { critical: "Kritisch", warning: "Warnung", resolved: "Behoben" },
    summary: (org, from, to) => `Wochenübersicht von ${org}, ${from} bis ${to}`,
    feedback: { subject: "Neues Nutzer-Feedback", from: "Von", url: "URL", issue: "Issue", anonymous: "(kein Name angegeben)", openIssue: "Das Issue" },
    facts: {
      project: "Projekt",
      level: "Stufe",
      events: "Ereignisse",
      users: "Nutzer",
      environment: "Umgebung",
      release: "Release",
      rule: "Alarmregel",
      metric: "Metrik",
      value: "Wert",
      threshold: "Schwellwert",
      window: "Zeitfenster (Minuten)",
      newIssues: "Neue Probleme",
      crashFree: "Absturzfreie Sitzungen",
      noData: "keine Daten",
    },
    open: "In Faultline öffnen",
    why: {
      issue_rule: "Sie erhalten diese E-Mail, weil eine Alarmregel dieses Projekts Sie benachrichtigt.",
      metric_alert: "Sie erhalten diese E-Mail, weil ein Metrik-Alarm Ihrer Organisation Sie benachrichtigt.",
      workflow: "Sie erhalten diese E-Mail, weil Sie an diesem Problem beteiligt sind.",
      weekly_summary: "Sie erhalten diese E-Mail, weil Sie die Wochenübersicht dieser Organisation beziehen.",
      test: "Sie erhalten diese E-Mail, weil jemand eine Testbenachrichtigung gesendet hat.",
    },
    stop: "Um diese E-Mails abzubestellen, ändern Sie die Alarmregel oder Ihre Benachrichtigungseinstellungen in Ihrem Konto.",
  },
};

const html = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

type Content = { subject: string; lines: string[]; facts: [string, string][]; url: string };

function content(p: NotificationPayload, s: Strings): Content {
  const msg = (t: string) => truncate(t, NOTIFICATION_LIMITS.messageChars);
  if (p.kind === "issue") {
    const lines = [msg(p.issue.title)];
    if (p.event?.message && p.event.message !== p.issue.title) lines.push(msg(p.event.message));
    if (p.issue.culprit) lines.push(p.issue.culprit);
    if (p.actor) lines.push(`${p.actor.name || p.actor.email}${p.text ? `: ${msg(p.text)}` : ""}`);
    const facts: [string, string][] = [
      [s.facts.project, p.project.name],
      [s.facts.level, p.issue.level],
      [s.facts.events, String(p.issue.count)],
      [s.facts.users, String(p.issue.userCount)],
    ];
    if (p.event?.environment) facts.push([s.facts.environment, p.event.environment]);
    if (p.event?.release) facts.push([s.facts.release, p.event.release]);
    if (p.ruleName) facts.push([s.facts.rule, p.ruleName]);
    return { subject: `[${p.project.name}] ${s.triggers[p.trigger]}: ${p.issue.shortId} ${p.issue.title}`, lines, facts, url: p.issueUrl };
  }
  if (p.kind === "feedback") {
    // To members of the organization: the contact e-mail too, so that someone can answer the person.
    const f = p.feedback;
    const from = f.name && f.email ? `${f.name} <${f.email}>` : f.name || f.email || s.feedback.anonymous;
    const facts: [string, string][] = [
      [s.facts.project, p.project.name],
      [s.feedback.from, from],
    ];
    if (f.url) facts.push([s.feedback.url, f.url]);
    if (f.environment) facts.push([s.facts.environment, f.environment]);
    if (f.release) facts.push([s.facts.release, f.release]);
    if (p.issue) facts.push([s.feedback.issue, `${p.issue.shortId} ${msg(p.issue.title)}`]);
    if (p.ruleName) facts.push([s.facts.rule, p.ruleName]);
    const lines = f.message ? [truncate(f.message, NOTIFICATION_LIMITS.feedbackMessageChars)] : [];
    if (p.issue) lines.push(`${s.feedback.openIssue}: ${p.issue.url}`);
    return { subject: `[${p.project.name}] ${s.feedback.subject}: ${firstLine(f.message) || from}`, lines, facts, url: p.feedbackUrl };
  }
  if (p.kind === "metric") {
    const facts: [string, string][] = [
      [s.facts.metric, p.aggregate],
      [s.facts.value, p.value === null ? s.facts.noData : String(p.value)],
    ];
    if (p.threshold !== null) facts.push([s.facts.threshold, String(p.threshold)]);
    facts.push([s.facts.window, String(p.timeWindow)]);
    if (p.project) facts.push([s.facts.project, p.project.name]);
    return { subject: `${s.metric[p.status]}: ${p.ruleName}`, lines: [p.ruleName], facts, url: p.url };
  }
  const facts: [string, string][] = [
    [s.facts.newIssues, String(p.newIssues)],
    [s.facts.events, String(p.events)],
  ];
  if (p.crashFreeSessions !== null) facts.push([s.facts.crashFree, `${p.crashFreeSessions} %`]);
  return {
    subject: s.summary(p.organization.name, p.from, p.to),
    lines: p.topIssues.map((i) => `${i.shortId} ${msg(i.title)} (${i.count})`),
    facts,
    url: p.url,
  };
}

/** The mail for `payload` in `locale` (German for "de…", else English). */
export function renderEmail(payload: NotificationPayload, source: NotificationSource, locale: string): RenderedMail {
  const s = STRINGS[locale.toLowerCase().startsWith("de") ? "de" : "en"];
  const c = content(payload, s);
  const subject = truncate(c.subject.replace(/[\r\n]+/g, " "), NOTIFICATION_LIMITS.mailSubjectChars);
  const text = [...c.lines, "", ...c.facts.map(([k, v]) => `${k}: ${v}`), "", `${s.open}: ${c.url}`, "", "-- ", s.why[source], s.stop, ""].join("\n");
  const rows = c.facts.map(([k, v]) => `<tr><th align="left" style="padding:2px 12px 2px 0">${html(k)}</th><td>${html(v)}</td></tr>`).join("");
  const body = [
    `<h1 style="font-size:18px">${html(subject)}</h1>`,
    ...c.lines.map((l) => `<p>${html(l)}</p>`),
    `<table>${rows}</table>`,
    `<p><a href="${html(c.url)}">${html(s.open)}</a></p>`,
    `<hr><p style="color:#666;font-size:12px">${html(s.why[source])}<br>${html(s.stop)}</p>`,
  ].join("\n");
  const lang = s === STRINGS.de ? "de" : "en";
  return {
    subject,
    text,
    html: `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><title>${html(subject)}</title></head><body style="font-family:sans-serif">${body}</body></html>`,
  };
}
