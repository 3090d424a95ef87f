// A trace's log lines on the trace page (issue 19): across the organization's projects, oldest first, each with its
// project and a link to that project's logs narrowed to the trace.
import { getTranslations } from "next-intl/server";
import { LOG_LIMITS } from "@/config/limits";
import { LocaleLink } from "@/i18n/locale-link";
import type { StoredLog } from "@/storage/log-ports";
import { logTime } from "./log-row";

export async function TraceLogs({
  locale,
  org,
  traceId,
  logs,
}: {
  locale: string;
  org: string;
  traceId: string;
  logs: (StoredLog & { projectSlug: string })[];
}) {
  const t = await getTranslations("logs");
  const projects = [...new Set(logs.map((l) => l.projectSlug))];
  return (
    <section className="card" aria-labelledby="trace-logs-title" data-testid="trace-logs">
      <h2 id="trace-logs-title">{t("traceLogs")}</h2>
      {logs.length === 0 ? (
        <p className="muted">{t("traceLogsEmpty")}</p>
      ) : (
        <>
          <div className="table-scroll">
            <table className="table log-table">
              <thead>
                <tr>
                  <th scope="col">{t("time")}</th>
                  <th scope="col">{t("level")}</th>
                  <th scope="col">{t("project")}</th>
                  <th scope="col">{t("message")}</th>
                </tr>
              </thead>
              <tbody>
                {logs.map((l) => (
                  <tr key={l.id} data-testid="trace-log-row">
                    <td className="log-time">
                      <time dateTime={l.timestamp}>{logTime(l.timestamp)}</time>
                    </td>
                    <td>
                      <span className={`badge level-${l.level}`}>{l.level}</span>
                    </td>
                    <td>{l.projectSlug}</td>
                    <td className="wrap log-body">
                      <span className="log-message">{l.body}</span>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {logs.length >= LOG_LIMITS.perTrace ? <p className="muted">{t("traceLogsMore", { count: LOG_LIMITS.perTrace })}</p> : null}
          <p>
            {projects.map((slug) => (
              <LocaleLink
                key={slug}
                locale={locale}
                className="button secondary"
                href={`/orgs/${org}/projects/${slug}/logs?trace=${traceId}`}
                data-testid="trace-logs-link"
              >
                {t("openInLogs")} ({slug})
              </LocaleLink>
            ))}
          </p>
        </>
      )}
    </section>
  );
}
