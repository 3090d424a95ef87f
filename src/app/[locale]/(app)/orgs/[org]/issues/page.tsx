// The issue stream: an organization's issues (or one project's), searched, sorted and paged, with bulk triage,
// sparklines and live updates; before the first issue, how to send one.
import { getTranslations } from "next-intl/server";
import { STREAM_LIMITS } from "@/config/limits";
import { isAppError } from "@/core/errors";
import { type IssueStream, type StreamPeriod, issueSearchSuggestions, listOrgIssues } from "@/core/issue-stream";
import { pageRequest } from "@/core/pagination";
import { can } from "@/core/permissions";
import { LocaleLink } from "@/i18n/locale-link";
import { getServices } from "@/runtime/services";
import { bulkIssuesAction } from "@/web/actions/issue-stream.action";
import { ActionForm } from "@/web/components/action-form";
import { BulkBar } from "@/web/components/issue-stream/bulk-bar";
import { EmptyState } from "@/web/components/issue-stream/empty-state";
import { IssueTable } from "@/web/components/issue-stream/issue-table";
import { StreamLive } from "@/web/components/issue-stream/live";
import { SearchInput } from "@/web/components/issue-stream/search-input";
import { OrgNav } from "@/web/components/org-nav";
import { loadOrNotFound } from "@/web/load";
import { requireCore } from "@/web/session";

export const dynamic = "force-dynamic";

type Search = { project?: string; query?: string; sort?: string; statsPeriod?: string; environment?: string; cursor?: string };
const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
const SORTS = ["date", "new", "freq", "user"] as const;
const STATUSES = ["unresolved", "resolved", "ignored", "assigned", "unassigned"];
const LEVELS = ["fatal", "error", "warning", "info", "debug"];

export default async function IssueStreamPage({
  params,
  searchParams,
}: {
  params: { locale: string; org: string };
  searchParams: Record<string, string | string[] | undefined>;
}) {
  const s: Search = Object.fromEntries(["project", "query", "sort", "statsPeriod", "environment", "cursor"].map((k) => [k, one(searchParams[k])]));
  const here = `/orgs/${params.org}/issues`;
  const core = await requireCore(params.locale, `/${params.locale}${here}`);
  const t = await getTranslations("issueStream");
  const period: StreamPeriod = s.statsPeriod === "14d" ? "14d" : "24h";
  const q = { project: s.project || null, query: s.query ?? null, sort: s.sort || null, environment: s.environment || null };
  let stream: IssueStream | null = null;
  // A search over the length limit is refused by the core too; here it is said in the page's language.
  let searchError: string | null = (q.query?.length ?? 0) > STREAM_LIMITS.maxQueryLength ? t("searchTooLong", { max: STREAM_LIMITS.maxQueryLength }) : null;
  try {
    if (!searchError)
      stream = await loadOrNotFound(() =>
        listOrgIssues(core, params.org, { ...q, period, page: { ...pageRequest("sort|id", { cursor: s.cursor }), limit: STREAM_LIMITS.pageSize } }),
      );
  } catch (err) {
    if (!isAppError(err) || err.code !== "bad_request") throw err;
    searchError = err.message;
  }
  // A bad search still shows the page: the organization and its projects come from an unfiltered read.
  stream ??= await loadOrNotFound(() => listOrgIssues(core, params.org, { ...q, query: "", sort: null, period, page: { limit: 1 } }));
  const { access, projects, selected, page } = stream;
  const suggestions = await issueSearchSuggestions(core, params.org, selected?.slug ?? null);
  const href = (over: Partial<Search>) => {
    const merged: Search = { ...s, cursor: undefined, ...over };
    const qs = new URLSearchParams(Object.entries(merged).filter((e): e is [string, string] => typeof e[1] === "string" && e[1] !== ""));
    return `${here}${qs.size > 0 ? `?${qs}` : ""}`;
  };
  const items = searchError ? [] : page.items;
  const live = new URLSearchParams({ after: String(stream.newestId), ids: items.map((i) => i.id).join(",") });
  for (const [k, v] of Object.entries({ project: q.project, query: q.query, environment: q.environment })) if (v !== null) live.set(k, v);
  const liveUrl = `${getServices().basePath}/api/internal/orgs/${encodeURIComponent(access.org.slug)}/issues/stream?${live}`;
  const selectable = can(access.role, "issue:update");
  const values = {
    is: STATUSES,
    level: LEVELS,
    release: suggestions.releases,
    environment: suggestions.environments,
    assigned: ["me", "my_teams", "none", ...suggestions.users.map((u) => u.email), ...suggestions.teams.map((x) => `#${x.slug}`)],
  };

  return (
    <>
      <OrgNav org={access.org} current="issues" />
      <h1>{selected ? t("titleProject", { project: selected.name }) : t("title")}</h1>
      <form method="get" className="stream-search" role="search" aria-label={t("searchLabel")} data-testid="stream-search">
        <div className="field">
          <label htmlFor="stream-project">{t("project")}</label>
          <select id="stream-project" name="project" defaultValue={selected?.slug ?? ""} data-testid="project-picker">
            <option value="">{t("allProjects")}</option>
            {projects.map((p) => (
              <option key={p.id} value={p.slug}>
                {p.name}
              </option>
            ))}
          </select>
        </div>
        <SearchInput name="query" label={t("search")} defaultValue={s.query ?? "is:unresolved"} placeholder={t("searchPlaceholder")} values={values} />
        {s.sort ? <input type="hidden" name="sort" value={s.sort} /> : null}
        {s.statsPeriod ? <input type="hidden" name="statsPeriod" value={s.statsPeriod} /> : null}
        {s.environment ? <input type="hidden" name="environment" value={s.environment} /> : null}
        <button type="submit" className="button">
          {t("searchSubmit")}
        </button>
      </form>
      {searchError ? (
        <p className="form-error" role="alert" data-testid="search-error">
          {searchError}
        </p>
      ) : null}
      <div className="stream-options">
        <nav aria-label={t("sortLabel")} className="segmented">
          <span className="muted">{t("sortLabel")}:</span>
          {SORTS.map((sort) => (
            <LocaleLink
              locale={params.locale}
              key={sort}
              href={href({ sort })}
              aria-current={(s.sort || "date") === sort ? "true" : undefined}
              data-testid={`sort-${sort}`}
            >
              {t(`sort.${sort}`)}
            </LocaleLink>
          ))}
        </nav>
        <nav aria-label={t("periodLabel")} className="segmented">
          <span className="muted">{t("periodLabel")}:</span>
          {(["24h", "14d"] as const).map((p) => (
            <LocaleLink locale={params.locale} key={p} href={href({ statsPeriod: p, cursor: s.cursor })} aria-current={period === p ? "true" : undefined}>
              {t(`period.${p}`)}
            </LocaleLink>
          ))}
        </nav>
      </div>
      <StreamLive
        url={liveUrl}
        locale={params.locale}
        labels={{
          one: t("live.one"),
          many: t("live.many"),
          capped: t("live.capped", { count: STREAM_LIMITS.newIssuesCap }),
          show: t("live.show"),
          superseded: t("live.superseded"),
          signedOut: t("live.signedOut"),
        }}
      >
        {stream.empty && !searchError ? (
          <EmptyState core={core} org={access.org.slug} locale={params.locale} project={selected ?? projects[0] ?? null} canSend={selectable} />
        ) : items.length === 0 ? (
          searchError ? null : (
            <p className="card muted" data-testid="no-matches">
              {t("noMatches")}
            </p>
          )
        ) : (
          <ActionForm action={bulkIssuesAction.bind(null, params.locale, access.org.slug)} className="stream-form" testId="bulk-form">
            {selectable ? <BulkBar people={suggestions} /> : null}
            <IssueTable
              org={access.org.slug}
              locale={params.locale}
              issues={items}
              projects={projects}
              series={stream.series}
              period={period}
              people={suggestions}
              selectable={selectable}
            />
          </ActionForm>
        )}
      </StreamLive>
      {page.previous || page.nextCursor ? (
        <nav className="pager" aria-label={t("pagination")}>
          {page.previous ? (
            <LocaleLink locale={params.locale} href={href({ cursor: page.previous.cursor ?? undefined })} rel="prev" data-testid="page-prev">
              {t("previous")}
            </LocaleLink>
          ) : (
            <span className="muted">{t("previous")}</span>
          )}
          {page.nextCursor ? (
            <LocaleLink locale={params.locale} href={href({ cursor: page.nextCursor })} rel="next" data-testid="page-next">
              {t("next")}
            </LocaleLink>
          ) : (
            <span className="muted">{t("next")}</span>
          )}
        </nav>
      ) : null}
    </>
  );
}
