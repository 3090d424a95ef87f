// The monitor form's fields into the core's input (core/monitors.ts): the schedule as Sentry's API takes it (a
// crontab string, or [count, unit] for an interval), numbers as numbers, an empty field as "not set"; text that is
// not a number stays text, so the core's check names the field.
type Values = Record<string, string | undefined>;

const numberOrText = (v: string | undefined): number | string | null => (v === undefined ? null : /^-?\d+$/.test(v.trim()) ? Number(v) : v);

export function formToMonitorInput(values: Values): Record<string, unknown> {
  const type = values.scheduleType === "interval" ? "interval" : "crontab";
  return {
    ...(values.name !== undefined && { name: values.name }),
    ...(values.slug !== undefined && { slug: values.slug }),
    ...(values.project !== undefined && { project: values.project }),
    config: {
      schedule_type: type,
      schedule: type === "interval" ? [numberOrText(values.schedule), values.intervalUnit ?? "hour"] : (values.schedule ?? ""),
      timezone: values.timezone ?? "UTC",
      checkin_margin: numberOrText(values.checkinMargin),
      max_runtime: numberOrText(values.maxRuntime),
      failure_issue_threshold: numberOrText(values.failureIssueThreshold),
      recovery_threshold: numberOrText(values.recoveryThreshold),
    },
  };
}

/** The core names a bad configuration `config`; the form shows it at the schedule. */
export function formFields(fields: Record<string, string[]> | undefined): Record<string, string[]> | undefined {
  if (!fields) return fields;
  const { config, ...rest } = fields;
  return config ? { ...rest, schedule: [...(rest.schedule ?? []), ...config] } : rest;
}
