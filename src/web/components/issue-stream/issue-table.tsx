// The stream's rows: status, short id, title, culprit, level, counts, sparkline, last and first seen, assignee. With
// triage rights each row has a box for the bulk form around the table. Counts and last seen are marked `data-live`:
// the page's StreamLive (live.tsx) writes newer figures into them.
import { getTranslations } from "next-intl/server";
import { formatShortId } from "@/core/short-id";
import type { SearchSuggestions, StreamPeriod } from "@/core/issue-stream";
import { LocaleLink } from "@/i18n/locale-link";
import type { Issue } from "@/storage/issue-ports";
import type { Project } from "@/storage/ports";
import { Sparkline } from "../charts/sparkline";
import { formatCompactCount as formatCount, formatWhen } from "@/web/format";
import { liveText } from "./live-text";

type Props = {
  org: string;
  locale: string;
  issues: Issue[];
  projects: Project[];
  series: Map<number, number[]>;
  period: StreamPeriod;
  people: Pick<SearchSuggestions, "users" | "teams">;
  selectable: boolean;
};

export async function IssueTable({ org, locale, issues, projects, series, period, people, selectable }: Props) {
  const t = await getTranslations("issueStream");
  const slugOf = new Map(projects.map((p) => [p.id, p.slug]));
  const assignee = (i: Issue) => {
    if (i.assigneeTeamId !== null) return `#${people.teams.find((x) => x.id === i.assigneeTeamId)?.slug ?? i.assigneeTeamId}`;
    if (i.assigneeId !== null) {
      const u = people.users.find((x) => x.id === i.assigneeId);
      return u ? u.name || u.email : t("formerMember");
    }
    return null;
  };
  return (
    <div className="stream-table-wrap">
      <table className="stream-table" data-testid="issue-table">
        <caption className="visually-hidden">{t("tableCaption")}</caption>
        <thead>
          <tr>
            {selectable ? <th scope="col"><span className="visually-hidden">{t("select")}</span></th> : null}
            <th scope="col">{t("columns.issue")}</th>
            <th scope="col">{t("columns.level")}</th>
            <th scope="col" className="num">{t("columns.events")}</th>
            <th scope="col" className="num">{t("columns.users")}</th>
            <th scope="col">{t(`columns.graph${period}`)}</th>
            <th scope="col">{t("columns.lastSeen")}</th>
            <th scope="col" className="wide-only">{t("columns.firstSeen")}</th>
            <th scope="col">{t("columns.assignee")}</th>
          </tr>
        </thead>
        <tbody>
          {issues.map((i) => {
            const shortId = formatShortId(slugOf.get(i.projectId) ?? "issue", i.shortId);
            const values = series.get(i.id) ?? [];
            const total = values.reduce((s, v) => s + v, 0);
            return (
              <tr key={i.id} data-testid="issue-row" data-issue-id={i.id} data-status={i.status}>
                {selectable ? (
                  <td>
                    <input type="checkbox" name="issue" value={i.id} id={`issue-${i.id}`} aria-label={t("selectIssue", { shortId })} />
                  </td>
                ) : null}
                <td className="issue-cell">
                  <span className={`badge status-${i.status}`}>{t(`status.${i.status}`)}</span> <code className="short-id">{shortId}</code>
                  <br />
                  <LocaleLink locale={locale} href={`/orgs/${org}/issues/${i.id}`} className="issue-title" data-testid="issue-title">
                    {i.title}
                  </LocaleLink>
                  {i.culprit ? <span className="muted issue-culprit">{i.culprit}</span> : null}
                </td>
                <td>
                  <span className={`badge level-${i.level}`}>{i.level}</span>
                </td>
                <td className="num" data-testid="issue-events">
                  <span data-live="timesSeen">{liveText(locale, i.timesSeen)}</span>
                </td>
                <td className="num">
                  <span data-live="userCount">{liveText(locale, i.userCount)}</span>
                </td>
                <td>
                  <Sparkline values={values} label={t(`sparkline${period}`, { count: formatCount(locale, total) })} />
                </td>
                <td>
                  <time dateTime={i.lastSeen} data-live="lastSeen">
                    {liveText(locale, i.lastSeen)}
                  </time>
                </td>
                <td className="wide-only">
                  <time dateTime={i.firstSeen}>{formatWhen(locale, i.firstSeen)}</time>
                </td>
                <td>{assignee(i) ?? <span className="muted">{t("unassigned")}</span>}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
