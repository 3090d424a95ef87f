// One cron monitor: its schedule and environments, the durations of its latest check-ins (uPlot, loaded after the
// page), the check-ins themselves, and for owners and admins mute, edit and delete.
import { getTranslations } from "next-intl/server";
import { allowed, getOrgAccess } from "@/core/access";
import { getMonitor } from "@/core/monitors";
import { LocaleLink } from "@/i18n/locale-link";
import { deleteMonitorAction, muteMonitorAction } from "@/web/actions/monitors.action";
import { ActionForm, SubmitButton } from "@/web/components/action-form";
import { TimeSeriesChart } from "@/web/components/charts/time-series-chart";
import { MonitorEditor } from "@/web/components/monitors/editor";
import { CheckInTimeline } from "@/web/components/monitors/timeline";
import { OrgNav } from "@/web/components/org-nav";
import { TableHead } from "@/web/components/table-head";
import { formatWhen } from "@/web/format";
import { loadOrNotFound } from "@/web/load";
import { requireCore } from "@/web/session";

export const dynamic = "force-dynamic";

export default async function MonitorPage({ params }: { params: { locale: string; org: string; monitor: string } }) {
  const core = await requireCore(params.locale, `/${params.locale}/orgs/${params.org}/monitors/${encodeURIComponent(params.monitor)}`);
  const access = await loadOrNotFound(() => getOrgAccess(core, params.org));
  const m = await loadOrNotFound(() => getMonitor(core, params.org, decodeURIComponent(params.monitor)));
  const t = await getTranslations("monitors");
  const canWrite = allowed(access, "monitor:write");
  const envName = (id: number) => m.environments.find((e) => e.id === id)?.environment ?? "";
  // Oldest first, one point per millisecond at most (the chart's x axis is in seconds, fractions kept); a line needs
  // two points, so a single timed check-in is told in the summary alone.
  const timed = [...m.checkIns].reverse().filter((c) => c.durationMs !== null);
  const bySecond = new Map(timed.map((c) => [Date.parse(c.dateAdded) / 1000, c.durationMs!]));
  const times = [...bySecond.keys()].sort((a, b) => a - b);
  return (
    <>
      <OrgNav org={access.org} current="monitors" />
      <p className="crumbs">
        <LocaleLink locale={params.locale} href={`/orgs/${access.org.slug}/monitors`}>
          {t("title")}
        </LocaleLink>
      </p>
      <h1>
        {m.name}
        {m.isMuted ? (
          <span className="badge" data-testid="monitor-muted">
            {t("muted")}
          </span>
        ) : null}
      </h1>
      <p>
        <code data-testid="monitor-schedule">
          {m.scheduleType === "crontab" ? m.schedule : t("every", { count: Number(m.schedule), unit: t(`units.${m.intervalUnit ?? "hour"}`) })}
        </code>{" "}
        · {m.timezone} · {m.project.name} · <code>{m.slug}</code>
      </p>
      <section className="card">
        <h2>{t("environments")}</h2>
        {m.environments.length === 0 ? <p className="muted">{t("waiting")}</p> : null}
        {m.environments.map((e) => (
          <div key={e.id} className="monitor-env" data-testid={`monitor-env-${e.environment}`}>
            <span className={`badge monitor-${e.status}`}>{t(`envStatus.${e.status}`)}</span> <strong>{e.environment}</strong>{" "}
            <span className="muted">{e.nextCheckin ? t("nextCheckIn", { when: formatWhen(params.locale, e.nextCheckin) }) : ""}</span>
            <CheckInTimeline
              locale={params.locale}
              checkIns={m.checkIns.filter((c) => c.environmentId === e.id).slice(0, 30)}
              statusLabel={(s) => t(`status.${s}`)}
              label={t("timelineLabel", { environment: e.environment })}
              latestLabel={(checkIn) => t("timelineLatest", { checkIn })}
            />
          </div>
        ))}
      </section>
      <section className="card">
        <h2>{t("durations")}</h2>
        {times.length < 2 ? (
          <p className="muted">{times.length === 0 ? t("noDurations") : t("durationsSummary", { count: 1 })}</p>
        ) : (
          <TimeSeriesChart
            kind="line"
            data={{ times, series: [{ label: t("durationMs"), values: times.map((s) => bySecond.get(s) ?? null), color: "--accent" }] }}
            label={t("durations")}
            summary={t("durationsSummary", { count: times.length })}
            testId="monitor-durations"
          />
        )}
      </section>
      <section className="card">
        <h2>{t("checkIns")}</h2>
        {m.checkIns.length === 0 ? (
          <p className="muted">{t("noCheckIns")}</p>
        ) : (
          <div className="table-scroll">
            <table className="table" data-testid="checkin-table">
              <caption className="visually-hidden">{t("checkIns")}</caption>
              <TableHead columns={[t("statusColumn"), t("environment"), t("when"), t("duration"), t("expected")]} />
              <tbody>
                {m.checkIns.map((c) => (
                  <tr key={c.id} data-status={c.status}>
                    <td>{t(`status.${c.status}`)}</td>
                    <td>{envName(c.environmentId)}</td>
                    <td>{formatWhen(params.locale, c.dateAdded)}</td>
                    <td>{c.durationMs === null ? "—" : `${c.durationMs} ms`}</td>
                    <td>{c.expectedTime ? formatWhen(params.locale, c.expectedTime) : "—"}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      {canWrite ? (
        <section className="card">
          <h2>{t("edit")}</h2>
          <ActionForm action={muteMonitorAction.bind(null, params.locale, access.org.slug, m.slug, !m.isMuted)} className="inline-form" testId="mute-monitor">
            <SubmitButton variant="secondary">{m.isMuted ? t("unmute") : t("mute")}</SubmitButton>
          </ActionForm>
          <MonitorEditor locale={params.locale} org={access.org.slug} projects={null} monitor={m} />
          <ActionForm action={deleteMonitorAction.bind(null, params.locale, access.org.slug, m.slug)} className="inline-form" testId="delete-monitor">
            <SubmitButton variant="danger">{t("delete")}</SubmitButton>
          </ActionForm>
        </section>
      ) : null}
    </>
  );
}
