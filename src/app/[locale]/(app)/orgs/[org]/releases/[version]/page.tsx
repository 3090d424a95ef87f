// One release: its crash-free rates and events in one environment (or all), sessions per day as a chart, the issues
// first seen in it (linking to their detail), its commits as set-commits sent them, its first and last event, and
// the source files sentry-cli uploaded for it.
import { getTranslations } from "next-intl/server";
import { notFound } from "next/navigation";
import { getOrganization } from "@/core/organizations";
import { listEnvironments, releaseDetail } from "@/core/release-pages";
import { LocaleLink } from "@/i18n/locale-link";
import { commitsOf, serializeCommit, serializeRelease } from "@/web/api/release-serializers";
import { TimeSeriesChart } from "@/web/components/charts/time-series-chart";
import { EnvironmentFilter, environmentParam } from "@/web/components/environment-filter";
import { OrgNav } from "@/web/components/org-nav";
import { ReleaseArtifacts } from "@/web/components/release-artifacts";
import { formatCount, formatDate, formatPercent } from "@/web/format";
import { loadOrNotFound } from "@/web/load";
import { requireCore } from "@/web/session";

export const dynamic = "force-dynamic";

type SearchParams = Record<string, string | string[] | undefined>;

function decodedVersion(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    notFound();
  }
}

export default async function ReleasePage({ params, searchParams }: { params: { locale: string; org: string; version: string }; searchParams: SearchParams }) {
  const version = decodedVersion(params.version);
  const core = await requireCore(params.locale, `/${params.locale}/orgs/${params.org}/releases/${encodeURIComponent(version)}`);
  const { org } = await loadOrNotFound(() => getOrganization(core, params.org));
  const environment = environmentParam(searchParams);
  const [r, environments] = await loadOrNotFound(() =>
    Promise.all([releaseDetail(core, org.slug, version, { environment }), listEnvironments(core, org.slug, null)]),
  );
  const t = await getTranslations("releases");
  const l = params.locale;
  const s = serializeRelease(r.view);
  const commits = commitsOf(r.view).map(serializeCommit);
  const totalSessions = r.daily.sessions.reduce((a, b) => a + b, 0);
  const totalCrashed = r.daily.crashed.reduce((a, b) => a + b, 0);
  return (
    <>
      <OrgNav org={org} current="releases" />
      <p className="crumbs">
        <LocaleLink locale={params.locale} href={`/orgs/${org.slug}/releases`}>
          {t("title")}
        </LocaleLink>{" "}
        / <span>{s.version}</span>
      </p>
      <h1 className="wrap">{s.version}</h1>
      <div className="filter-bar">
        <EnvironmentFilter environments={environments} params={searchParams} />
      </div>
      <ul className="stat-tiles" data-testid="release-figures">
        <li className="tile">
          <span className="muted">{t("crashFreeSessions")}</span>
          <strong data-testid="detail-crash-free-sessions">{formatPercent(l, r.health.crashFreeSessions)}</strong>
          <span className="muted">{t("sessionsOf", { sessions: r.health.sessions, crashed: r.health.sessionsCrashed })}</span>
        </li>
        <li className="tile">
          <span className="muted">{t("crashFreeUsers")}</span>
          <strong data-testid="detail-crash-free-users">{formatPercent(l, r.health.crashFreeUsers)}</strong>
          <span className="muted">{t("usersOf", { users: r.health.users, crashed: r.health.usersCrashed })}</span>
        </li>
        <li className="tile">
          <span className="muted">{t("events")}</span>
          <strong data-testid="detail-events">{formatCount(l, r.events)}</strong>
        </li>
        <li className="tile">
          <span className="muted">{t("newIssues")}</span>
          <strong>{formatCount(l, s.newGroups)}</strong>
        </li>
      </ul>
      <section className="card">
        <h2>{t("sessionsChart")}</h2>
        <TimeSeriesChart
          testId="release-sessions-chart"
          label={t("sessionsChart")}
          summary={t("sessionsSummary", { sessions: totalSessions, crashed: totalCrashed })}
          data={{
            times: r.daily.days,
            series: [
              { label: t("sessions"), values: r.daily.sessions, color: "--accent" },
              { label: t("crashed"), values: r.daily.crashed, color: "--danger" },
            ],
          }}
        />
      </section>
      <section className="card">
        <h2>{t("newIssuesTitle")}</h2>
        {r.newIssues.length === 0 ? (
          <p className="muted">{t("noNewIssues")}</p>
        ) : (
          <ul className="issue-links" data-testid="release-new-issues">
            {r.newIssues.map((i) => (
              <li key={i.id}>
                <LocaleLink locale={params.locale} href={`/orgs/${org.slug}/issues/${i.id}`}>
                  {i.title}
                </LocaleLink>
                <span className="muted">
                  {" "}
                  {i.culprit} · {t("eventsCount", { count: i.timesSeen })}
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section className="card">
        <h2>{t("details")}</h2>
        <dl className="facts">
          <dt>{t("projects")}</dt>
          <dd>{r.projects.map((p) => p.name).join(", ")}</dd>
          <dt>{t("firstEvent")}</dt>
          <dd>{formatDate(l, s.firstEvent)}</dd>
          <dt>{t("lastEvent")}</dt>
          <dd>{formatDate(l, s.lastEvent)}</dd>
          <dt>{t("created")}</dt>
          <dd>{formatDate(l, s.dateCreated)}</dd>
          <dt>{t("released")}</dt>
          <dd>{formatDate(l, s.dateReleased)}</dd>
        </dl>
      </section>
      {commits.length > 0 ? (
        <section className="card">
          <h2>{t("commits")}</h2>
          <ul className="commit-list" data-testid="release-commits">
            {commits.map((c) => (
              <li key={c.id}>
                <code>{c.id.slice(0, 12)}</code> {c.message ?? ""}{" "}
                <span className="muted">{[c.author?.name, c.repository?.name].filter(Boolean).join(" · ")}</span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <ReleaseArtifacts files={r.artifacts} locale={l} />
    </>
  );
}
