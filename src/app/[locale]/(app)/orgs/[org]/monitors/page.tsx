// The organization's cron monitors: each with its project, schedule and, per environment, its state and a timeline
// of its latest check-ins.
import { getTranslations } from "next-intl/server";
import { allowed, getOrgAccess } from "@/core/access";
import { latestCheckIns, listMonitors } from "@/core/monitors";
import { LocaleLink } from "@/i18n/locale-link";
import { CheckInTimeline } from "@/web/components/monitors/timeline";
import { OrgNav } from "@/web/components/org-nav";
import { TableHead } from "@/web/components/table-head";
import { loadOrNotFound } from "@/web/load";
import { requireCore } from "@/web/session";

export const dynamic = "force-dynamic";

export default async function MonitorsPage({ params }: { params: { locale: string; org: string } }) {
  const core = await requireCore(params.locale, `/${params.locale}/orgs/${params.org}/monitors`);
  const access = await loadOrNotFound(() => getOrgAccess(core, params.org));
  const monitors = await loadOrNotFound(() => listMonitors(core, params.org));
  const checkIns = await latestCheckIns(core, monitors);
  const t = await getTranslations("monitors");
  const base = `/orgs/${access.org.slug}/monitors`;
  const schedule = (m: (typeof monitors)[number]) =>
    m.scheduleType === "crontab" ? `${m.schedule} (${m.timezone})` : t("every", { count: Number(m.schedule), unit: t(`units.${m.intervalUnit ?? "hour"}`) });
  return (
    <>
      <OrgNav org={access.org} current="monitors" />
      <h1>{t("title")}</h1>
      {allowed(access, "monitor:write") ? (
        <p>
          <LocaleLink locale={params.locale} href={`${base}/new`} className="button" data-testid="new-monitor">
            {t("new")}
          </LocaleLink>
        </p>
      ) : null}
      {monitors.length === 0 ? (
        <p className="muted" data-testid="monitors-empty">
          {t("empty")}
        </p>
      ) : (
        <div className="table-scroll">
          <table className="table" data-testid="monitor-table">
            <caption className="visually-hidden">{t("title")}</caption>
            <TableHead columns={[t("name"), t("project"), t("schedule"), t("environments")]} />
            <tbody>
              {monitors.map((m) => (
                <tr key={m.id} data-testid={`monitor-${m.slug}`}>
                  <td>
                    <LocaleLink locale={params.locale} href={`${base}/${m.slug}`}>
                      {m.name}
                    </LocaleLink>
                    {m.isMuted ? <span className="badge">{t("muted")}</span> : null}
                    {m.status === "disabled" ? <span className="badge">{t("disabled")}</span> : null}
                  </td>
                  <td>{m.project.name}</td>
                  <td>
                    <code>{schedule(m)}</code>
                  </td>
                  <td>
                    {m.environments.length === 0 ? (
                      <span className="muted">{t("waiting")}</span>
                    ) : (
                      m.environments.map((e) => (
                        <div key={e.id} className="monitor-env" data-testid={`monitor-env-${e.environment}`}>
                          <span className={`badge monitor-${e.status}`}>{t(`envStatus.${e.status}`)}</span> <span>{e.environment}</span>
                          <CheckInTimeline
                            locale={params.locale}
                            checkIns={checkIns.filter((c) => c.environmentId === e.id)}
                            statusLabel={(s) => t(`status.${s}`)}
                            label={t("timelineLabel", { environment: e.environment })}
                            latestLabel={(checkIn) => t("timelineLatest", { checkIn })}
                          />
                        </div>
                      ))
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
