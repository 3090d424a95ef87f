// The issue's breadcrumbs and title: short id, level, status, title, culprit and assignee.
import { getLocale, getTranslations } from "next-intl/server";
import { formatShortId } from "@/core/short-id";
import { LocaleLink } from "@/i18n/locale-link";
import type { Issue } from "@/storage/issue-ports";
import type { Project } from "@/storage/ports";

export async function IssueHeader({ org, project, issue, assignee }: { org: string; project: Project; issue: Issue; assignee: string | null }) {
  const t = await getTranslations("issueDetail");
  // One read of the locale for the links below, instead of one suspension per link (i18n/locale-link.tsx).
  const locale = await getLocale();
  return (
    <div className="page-head issue-head">
      <p className="crumbs">
        <LocaleLink locale={locale} href="/orgs">
          {t("crumbs.organizations")}
        </LocaleLink>{" "}
        /{" "}
        <LocaleLink locale={locale} href={`/orgs/${org}`}>
          {org}
        </LocaleLink>{" "}
        /{" "}
        <LocaleLink locale={locale} href={`/orgs/${org}/issues?project=${encodeURIComponent(project.slug)}`}>
          {t("crumbs.issues", { project: project.name })}
        </LocaleLink>
      </p>
      <p className="issue-badges">
        <code data-testid="short-id">{formatShortId(project.slug, issue.shortId)}</code>
        <span className={`badge level level-${issue.level}`} data-testid="issue-level">
          {issue.level}
        </span>
        <span className={`badge status status-${issue.status}`} data-testid="issue-status">
          {t(`status.${issue.status}`)}
          {issue.substatus === "regressed" ? ` · ${t("status.regressed")}` : ""}
        </span>
        <span className="muted">{assignee ? t("assignedTo", { name: assignee }) : t("unassigned")}</span>
      </p>
      <h1 data-testid="issue-title">{issue.title}</h1>
      {issue.culprit ? (
        <p className="culprit muted" data-testid="issue-culprit">
          <code>{issue.culprit}</code>
        </p>
      ) : null}
    </div>
  );
}
