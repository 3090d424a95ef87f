// An organization's releases (or one project's, `?project=`), newest first, with their events and crash-free rates in
// one environment (`?environment=`) or all; keyset pages (`?cursor=`).
import { getTranslations } from "next-intl/server";
import { getOrganization } from "@/core/organizations";
import { listProjects } from "@/core/projects";
import { listEnvironments, releasesPage } from "@/core/release-pages";
import { LocaleLink } from "@/i18n/locale-link";
import { serializeRelease } from "@/web/api/release-serializers";
import { EnvironmentFilter, environmentParam } from "@/web/components/environment-filter";
import { FilterSelect } from "@/web/components/filter-select";
import { OrgNav } from "@/web/components/org-nav";
import { formatCount, formatDate, formatPercent } from "@/web/format";
import { loadOrNotFound } from "@/web/load";
import { requireCore } from "@/web/session";

export const dynamic = "force-dynamic";

type SearchParams = Record<string, string | string[] | undefined>;
const one = (v: string | string[] | undefined) => (typeof v === "string" && v !== "" ? v : null);

export default async function ReleasesPage({ params, searchParams }: { params: { locale: string; org: string }; searchParams: SearchParams }) {
  const core = await requireCore(params.locale, `/${params.locale}/orgs/${params.org}/releases`);
  const { org } = await loadOrNotFound(() => getOrganization(core, params.org));
  const project = one(searchParams.project);
  const environment = environmentParam(searchParams);
  const [page, environments, projects] = await loadOrNotFound(() =>
    Promise.all([
      releasesPage(core, org.slug, { project, environment, cursor: one(searchParams.cursor) }),
      listEnvironments(core, org.slug, project),
      listProjects(core, org.slug, { limit: 100 }),
    ]),
  );
  const t = await getTranslations("releases");
  const l = params.locale;
  const query = (extra: Record<string, string>) =>
    new URLSearchParams({ ...(project ? { project } : {}), ...(environment ? { environment } : {}), ...extra }).toString();
  return (
    <>
      <OrgNav org={org} current="releases" />
      <h1>{t("title")}</h1>
      <div className="filter-bar">
        <FilterSelect
          name="project"
          label={t("project")}
          allLabel={t("allProjects")}
          applyLabel={t("apply")}
          options={projects.items.map((p) => ({ value: p.slug, label: p.name }))}
          params={searchParams}
          testId="project-filter"
        />
        <EnvironmentFilter environments={environments} params={searchParams} />
      </div>
      {page.items.length === 0 ? (
        <p className="muted">{t("empty")}</p>
      ) : (
        <div className="table-scroll">
          <table className="table" data-testid="release-table">
            <thead>
              <tr>
                <th scope="col">{t("version")}</th>
                <th scope="col">{t("projects")}</th>
                <th scope="col" className="num">
                  {t("newIssues")}
                </th>
                <th scope="col" className="num">
                  {t("events")}
                </th>
                <th scope="col" className="num">
                  {t("crashFreeSessions")}
                </th>
                <th scope="col" className="num">
                  {t("crashFreeUsers")}
                </th>
                <th scope="col">{t("lastEvent")}</th>
                <th scope="col">{t("created")}</th>
              </tr>
            </thead>
            <tbody>
              {page.items.map((r) => {
                const s = serializeRelease(r.view);
                return (
                  <tr key={r.view.release.id} data-testid="release-row">
                    <td className="wrap">
                      <LocaleLink
                        locale={params.locale}
                        href={`/orgs/${org.slug}/releases/${encodeURIComponent(s.version)}${environment ? `?${new URLSearchParams({ environment })}` : ""}`}
                      >
                        {s.version}
                      </LocaleLink>
                    </td>
                    <td>{r.projects.map((p) => p.name).join(", ")}</td>
                    <td className="num">{formatCount(l, s.newGroups)}</td>
                    <td className="num" data-testid="release-events">
                      {formatCount(l, r.events)}
                    </td>
                    <td className="num" data-testid="release-crash-free-sessions">
                      {formatPercent(l, r.health.crashFreeSessions)}
                    </td>
                    <td className="num" data-testid="release-crash-free-users">
                      {formatPercent(l, r.health.crashFreeUsers)}
                    </td>
                    <td>{formatDate(l, s.lastEvent)}</td>
                    <td>{formatDate(l, s.dateReleased ?? s.dateCreated)}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      {page.nextCursor ? (
        <p>
          <LocaleLink locale={params.locale} className="button secondary" href={`/orgs/${org.slug}/releases?${query({ cursor: page.nextCursor })}`} rel="next">
            {t("next")}
          </LocaleLink>
        </p>
      ) : null}
    </>
  );
}
