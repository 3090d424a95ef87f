// A project's structured logs (issue 19): newest first, searched by words, `key:value` attributes, level, a period or
// a time range and a trace (core/log-query.ts), paged by a cursor (`?before=`). The first page follows new lines live
// (components/logs/log-tail.tsx); every page works without JavaScript. Reading is event:read (core/logs.ts).
import { getTranslations } from "next-intl/server";
import { isAppError } from "@/core/errors";
import { getProject } from "@/core/projects";
import { type LogPage, listProjectLogs } from "@/core/logs";
import { LocaleLink } from "@/i18n/locale-link";
import { getServices } from "@/runtime/services";
import { type LogLinks, type LogRowLabels, pageLine } from "@/web/components/logs/log-row";
import { LogSearchForm } from "@/web/components/logs/log-search-form";
import { LogLines } from "@/web/components/logs/log-tail";
import { ProjectNav } from "@/web/components/project-nav";
import { loadOrNotFound } from "@/web/load";
import { requireCore } from "@/web/session";

export const dynamic = "force-dynamic";

type SearchParams = Record<string, string | string[] | undefined>;

export default async function LogsPage({ params, searchParams }: { params: { locale: string; org: string; project: string }; searchParams: SearchParams }) {
  const l = params.locale;
  const core = await requireCore(l, `/${l}/orgs/${params.org}/projects/${params.project}/logs`);
  const t = await getTranslations("logs");
  let page: LogPage;
  try {
    page = await loadOrNotFound(() => listProjectLogs(core, params.org, params.project, searchParams));
  } catch (err) {
    if (!isAppError(err) || err.code !== "bad_request") throw err;
    // A search the page cannot read: the form again, with what was wrong, and no lines.
    const { access, project } = await loadOrNotFound(() => getProject(core, params.org, params.project));
    return (
      <>
        <ProjectNav org={access.org} project={project} current="logs" />
        <h1>{t("title")}</h1>
        <LogSearchForm
          locale={l}
          logsPath={`/orgs/${access.org.slug}/projects/${project.slug}/logs`}
          query={{ query: typeof searchParams.query === "string" ? searchParams.query : "", level: null, period: null, from: null, to: null, trace: null }}
        />
        <p className="notice" role="alert" data-testid="log-query-error">
          {t("badQuery", { message: err.message })}
        </p>
      </>
    );
  }
  const { org, project, query } = page;
  const logsPath = `/orgs/${org.slug}/projects/${project.slug}/logs`;
  const links: LogLinks = { locale: l, searchHref: `${getServices().basePath}/${l}${logsPath}`, tracesPath: `/orgs/${org.slug}/traces` };
  const labels: LogRowLabels = {
    time: t("time"),
    level: t("level"),
    message: t("message"),
    trace: t("trace"),
    notes: t("notes"),
    attributesOne: t("attributes", { count: 1 }).replace("1", "#"),
    attributesOther: t("attributes", { count: 2 }).replace("2", "#"),
  };
  // The tail follows the page's search; a page of older lines, or one ending in the past, has nothing new to follow.
  const tail = new URLSearchParams({ after: String(page.tailFrom) });
  if (query.query) tail.set("query", query.query);
  if (query.level) tail.set("level", query.level);
  if (query.trace) tail.set("trace", query.trace);
  const live = page.first && query.to === null;
  const liveUrl = `${getServices().basePath}/api/internal/orgs/${encodeURIComponent(org.slug)}/projects/${encodeURIComponent(project.slug)}/logs/stream?${tail}`;
  const keep = new URLSearchParams(Object.entries(searchParams).flatMap(([k, v]) => (k === "before" || typeof v !== "string" ? [] : [[k, v]])));
  const filtered = query.query !== "" || query.level !== null || query.period !== null || query.from !== null || query.to !== null || query.trace !== null;
  return (
    <>
      <ProjectNav org={org} project={project} current="logs" />
      <h1>{t("title")}</h1>
      <LogSearchForm locale={l} logsPath={logsPath} query={query} />
      <LogLines
        items={page.items.map(pageLine)}
        url={live ? liveUrl : null}
        links={links}
        rowLabels={labels}
        labels={{ on: t("liveOn"), off: t("liveOff"), start: t("start"), stop: t("stop"), more: t("more"), ended: t("ended", { reason: "{reason}" }) }}
      />
      {page.items.length === 0 ? (
        <p className="muted" data-testid="logs-empty">
          {filtered || !page.first ? t("empty") : t("emptyProject")}
        </p>
      ) : null}
      <p className="pager">
        {!page.first ? (
          <LocaleLink locale={l} className="button secondary" href={`${logsPath}?${keep}`} data-testid="logs-newest">
            {t("newest")}
          </LocaleLink>
        ) : null}{" "}
        {page.nextBefore ? (
          <LocaleLink
            locale={l}
            className="button secondary"
            href={`${logsPath}?${new URLSearchParams([...keep, ["before", page.nextBefore]])}`}
            rel="next"
            data-testid="logs-older"
          >
            {t("older")}
          </LocaleLink>
        ) : null}
      </p>
    </>
  );
}
