// The metric alert editor: a plain form posted to a server action (it works without JavaScript). Used to create a
// rule and to change one.
import { getTranslations } from "next-intl/server";
import { METRIC_ALERT_LIMITS } from "@/config/limits";
import { AGGREGATES } from "@/core/metric-alert-defs";
import type { MetricAlertRule } from "@/storage/metric-alert-ports";
import { saveMetricAlertAction } from "@/web/actions/metric-alerts.action";
import { ActionForm, Field, SubmitButton } from "@/web/components/action-form";
import { ACTION_ROWS, ACTION_TYPES, actionRow } from "@/web/metric-alert-form";

type Props = { locale: string; org: string; projects: { slug: string; name: string }[]; rule: MetricAlertRule | null };

export async function MetricAlertEditor({ locale, org, projects, rule }: Props) {
  const t = await getTranslations("metricAlerts");
  const trigger = (label: "critical" | "warning") => rule?.triggers.find((x) => x.label === label);
  const num = (v: number | null | undefined) => (v === null || v === undefined ? "" : String(v));
  return (
    <ActionForm action={saveMetricAlertAction.bind(null, locale, org, rule?.id ?? null)} testId="metric-alert-form">
      <Field name="name" label={t("name")} defaultValue={rule?.name ?? ""} required />
      <Field
        name="aggregate"
        label={t("aggregate")}
        defaultValue={rule?.aggregate ?? "count()"}
        options={AGGREGATES.map((a) => ({ value: a.aggregate, label: t(`aggregates.${AGGREGATES.indexOf(a)}`) }))}
      />
      <Field
        name="project"
        label={t("project")}
        defaultValue={rule?.project?.slug ?? ""}
        options={[{ value: "", label: t("allProjects") }, ...projects.map((p) => ({ value: p.slug, label: p.name }))]}
      />
      <Field name="environment" label={t("environment")} defaultValue={rule?.environment ?? ""} placeholder={t("anyEnvironment")} />
      <Field name="query" label={t("query")} defaultValue={rule?.query ?? ""} placeholder="transaction:/checkout" />
      <Field
        name="timeWindow"
        label={t("timeWindow")}
        defaultValue={String(rule?.timeWindow ?? 5)}
        options={METRIC_ALERT_LIMITS.timeWindowsMinutes.map((m) => ({ value: String(m), label: t("minutes", { count: m }) }))}
      />
      <Field
        name="thresholdType"
        label={t("thresholdType")}
        defaultValue={String(rule?.thresholdType ?? 0)}
        options={[
          { value: "0", label: t("above") },
          { value: "1", label: t("below") },
        ]}
      />
      {(["critical", "warning"] as const).map((label) => (
        <fieldset key={label} className="fieldset" data-testid={`trigger-${label}`}>
          <legend>{t(`trigger.${label}`)}</legend>
          <Field name={label} label={t("threshold")} type="text" defaultValue={num(trigger(label)?.alertThreshold)} required={label === "critical"} />
          {Array.from({ length: ACTION_ROWS }, (_, i) => {
            const row = trigger(label)?.actions[i];
            const current = row ? actionRow(row) : { type: "", target: "" };
            return (
              <div key={i} className="field-row">
                <Field
                  name={`${label}.action.${i}.type`}
                  label={t("actionType", { n: i + 1 })}
                  defaultValue={current.type}
                  options={ACTION_TYPES.map((a) => ({ value: a, label: t(`actionTypes.${a || "none"}`) }))}
                />
                <Field
                  name={`${label}.action.${i}.target`}
                  label={t("actionTarget", { n: i + 1 })}
                  defaultValue={current.target}
                  placeholder={t("actionTargetHint")}
                />
              </div>
            );
          })}
        </fieldset>
      ))}
      <Field name="resolve" label={t("resolveThreshold")} defaultValue={num(rule?.resolveThreshold)} placeholder={t("resolveDefault")} />
      <SubmitButton>{rule ? t("save") : t("create")}</SubmitButton>
    </ActionForm>
  );
}
