// The monitor editor: a plain form posted to a server action (it works without JavaScript), to create a monitor (its
// project, name and slug) or to change one (name, slug, schedule, time zone, margin, runtime, thresholds).
import { getTranslations } from "next-intl/server";
import { INTERVAL_UNITS, type Monitor } from "@/storage/monitor-ports";
import { saveMonitorAction } from "@/web/actions/monitors.action";
import { ActionForm, Field, SubmitButton } from "@/web/components/action-form";

type Props = { locale: string; org: string; projects: { slug: string; name: string }[] | null; monitor: Monitor | null };

export async function MonitorEditor({ locale, org, projects, monitor }: Props) {
  const t = await getTranslations("monitors");
  const num = (v: number | null | undefined) => (v === null || v === undefined ? "" : String(v));
  return (
    <ActionForm action={saveMonitorAction.bind(null, locale, org, monitor?.slug ?? null)} testId="monitor-form">
      {projects ? (
        <Field name="project" label={t("project")} defaultValue={projects[0]?.slug ?? ""} options={projects.map((p) => ({ value: p.slug, label: p.name }))} />
      ) : null}
      <Field name="name" label={t("name")} defaultValue={monitor?.name ?? ""} required />
      <Field name="slug" label={t("slug")} defaultValue={monitor?.slug ?? ""} placeholder={t("slugHint")} />
      <Field
        name="scheduleType"
        label={t("scheduleType")}
        defaultValue={monitor?.scheduleType ?? "crontab"}
        options={[
          { value: "crontab", label: t("crontab") },
          { value: "interval", label: t("interval") },
        ]}
      />
      <Field name="schedule" label={t("schedule")} defaultValue={monitor?.schedule ?? "0 * * * *"} required />
      <Field
        name="intervalUnit"
        label={t("intervalUnit")}
        defaultValue={monitor?.intervalUnit ?? "hour"}
        options={INTERVAL_UNITS.map((u) => ({ value: u, label: t(`units.${u}`) }))}
      />
      <Field name="timezone" label={t("timezone")} defaultValue={monitor?.timezone ?? "UTC"} />
      <Field name="checkinMargin" label={t("checkinMargin")} defaultValue={num(monitor?.checkinMargin)} placeholder="1" />
      <Field name="maxRuntime" label={t("maxRuntime")} defaultValue={num(monitor?.maxRuntime)} placeholder="30" />
      <Field name="failureIssueThreshold" label={t("failureIssueThreshold")} defaultValue={num(monitor?.failureIssueThreshold)} placeholder="1" />
      <Field name="recoveryThreshold" label={t("recoveryThreshold")} defaultValue={num(monitor?.recoveryThreshold)} placeholder="1" />
      <SubmitButton>{monitor ? t("save") : t("create")}</SubmitButton>
    </ActionForm>
  );
}
