// One trace across the organization's projects: its spans as a waterfall, the error events that share its trace id,
// linking to their issues (the issue page links back here), and its log lines (issue 19). A trace known only by its
// logs is shown too.
import { getTranslations } from "next-intl/server";
import { getOrganization } from "@/core/organizations";
import { isAppError } from "@/core/errors";
import { listTraceLogs } from "@/core/logs";
import { type TraceView, traceView } from "@/core/performance";
import { LocaleLink } from "@/i18n/locale-link";
import { OrgNav } from "@/web/components/org-nav";
import { TraceLogs } from "@/web/components/logs/trace-logs";
import { Waterfall } from "@/web/components/performance/waterfall";
import { formatDate, formatMs } from "@/web/format";
import { loadOrNotFound } from "@/web/load";
import { requireCore } from "@/web/session";

export const dynamic = "force-dynamic";

export default async function TracePage({ params }: { params: { locale: string; org: string; traceId: string } }) {
  const l = params.locale;
  const core = await requireCore(l, `/${l}/orgs/${params.org}/traces/${params.traceId}`);
  const { org } = await loadOrNotFound(() => getOrganization(core, params.org));
  const logs = await loadOrNotFound(() => listTraceLogs(core, params.org, params.traceId));
  const trace = await loadOrNotFound(() =>
    traceView(core, params.org, params.traceId).catch((err): TraceView => {
      if (isAppError(err) && err.code === "not_found" && logs.length > 0)
        return { traceId: params.traceId.toLowerCase(), spans: [], errors: [], startMs: 0, durationMs: 0, truncated: false };
      throw err;
    }),
  );
  const t = await getTranslations("performance.trace");
  const root = trace.spans[0];
  return (
    <>
      <OrgNav org={org} current="traces" />
      <h1 className="wrap">{t("title", { name: root?.transaction ?? trace.traceId })}</h1>
      <dl className="facts" data-testid="trace-facts">
        <dt>{t("traceId")}</dt>
        <dd>
          <code>{trace.traceId}</code>
        </dd>
        <dt>{t("started")}</dt>
        <dd>{root ? formatDate(l, new Date(trace.startMs).toISOString()) : "—"}</dd>
        <dt>{t("duration")}</dt>
        <dd>{formatMs(l, trace.durationMs)}</dd>
        <dt>{t("spans")}</dt>
        <dd>{trace.spans.length}</dd>
      </dl>
      <section className="card" aria-labelledby="trace-errors-title">
        <h2 id="trace-errors-title">{t("errors")}</h2>
        {trace.errors.length === 0 ? (
          <p className="muted">{t("noErrors")}</p>
        ) : (
          <ul className="issue-links" data-testid="trace-errors">
            {trace.errors.map((e) => (
              <li key={`${e.projectId}:${e.eventId}`}>
                {e.issueId !== null ? (
                  <LocaleLink locale={l} href={`/orgs/${org.slug}/issues/${e.issueId}/events/${e.eventId}`}>
                    {e.title}
                  </LocaleLink>
                ) : (
                  <span>{e.title}</span>
                )}
                <span className="muted">
                  {" "}
                  · {e.projectSlug} · {e.level} · {formatDate(l, e.timestamp)}
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>
      <TraceLogs locale={l} org={org.slug} traceId={trace.traceId} logs={logs} />
      {trace.truncated ? (
        <p className="notice" role="status">
          {t("truncated", { count: trace.spans.length })}
        </p>
      ) : null}
      {trace.spans.length > 0 ? (
        <Waterfall locale={l} org={org.slug} spans={trace.spans} durationMs={trace.durationMs} />
      ) : (
        <p className="card muted">{t("noSpans")}</p>
      )}
    </>
  );
}
