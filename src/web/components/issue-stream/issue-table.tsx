// The stream's rows, formatted on the server: status, short id, title, culprit, level, counts, sparkline, last and
// first seen, assignee. IssueRows (issue-rows.tsx) renders them; it is a client component so that the rows travel in
// the RSC payload as this compact data rather than as their element tree.
import { getTranslations } from "next-intl/server";
import { formatShortId } from "@/core/short-id";
import type { SearchSuggestions, StreamPeriod } from "@/core/issue-stream";
import type { Issue } from "@/storage/issue-ports";
import type { Project } from "@/storage/ports";
import { formatCompactCount as formatCount, formatWhen } from "@/web/format";
import { IssueRows, type StreamRow } from "./issue-rows";
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
  const rows = issues.map((i): StreamRow => {
    const shortId = formatShortId(slugOf.get(i.projectId) ?? "issue", i.shortId);
    const values = series.get(i.id) ?? [];
    const total = values.reduce((s, v) => s + v, 0);
    return {
      id: i.id,
      status: i.status,
      shortId,
      select: t("selectIssue", { shortId }),
      title: i.title,
      culprit: i.culprit || null,
      level: i.level,
      events: liveText(locale, i.timesSeen),
      users: liveText(locale, i.userCount),
      series: values,
      seriesLabel: t(`sparkline${period}`, { count: formatCount(locale, total) }),
      lastSeen: i.lastSeen,
      lastSeenText: liveText(locale, i.lastSeen),
      firstSeen: i.firstSeen,
      firstSeenText: formatWhen(locale, i.firstSeen),
      assignee: assignee(i),
    };
  });
  const labels = {
    caption: t("tableCaption"),
    select: t("select"),
    columns: {
      issue: t("columns.issue"),
      level: t("columns.level"),
      events: t("columns.events"),
      users: t("columns.users"),
      graph: t(`columns.graph${period}`),
      lastSeen: t("columns.lastSeen"),
      firstSeen: t("columns.firstSeen"),
      assignee: t("columns.assignee"),
    },
    status: { unresolved: t("status.unresolved"), resolved: t("status.resolved"), ignored: t("status.ignored") },
    unassigned: t("unassigned"),
  };
  return <IssueRows rows={rows} labels={labels} issueHref={`/${locale}/orgs/${org}/issues/`} selectable={selectable} />;
}
