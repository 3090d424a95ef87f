// The issue alert rule editor: a plain form (works without JavaScript) with one field per condition, filter and
// action (web/alert-rule-form.ts maps it to Sentry's rule shape). E-mail is shown as unavailable without mail set up.
import { getTranslations } from "next-intl/server";
import { INTERVALS, ISSUE_CATEGORIES, LEVELS, TAG_MATCHES } from "@/core/alert-rule-schema";
import { ActionForm, Field, SubmitButton } from "@/web/components/action-form";
import type { ActionState } from "@/web/actions/result";

type Props = {
  action: (prev: ActionState, form: FormData) => Promise<ActionState>;
  values: Record<string, string | undefined>;
  teams: { id: number; slug: string }[];
  members: { userId: string; name: string; email: string }[];
  mailReady: boolean;
  isNew: boolean;
};

function Check({ name, label, values }: { name: string; label: string; values: Props["values"] }) {
  return (
    <p>
      <label className="check-field">
        <input type="checkbox" name={name} defaultChecked={values[name] === "on"} data-testid={`rule-${name}`} /> {label}
      </label>
    </p>
  );
}

export async function AlertRuleEditor({ action, values, teams, members, mailReady, isNew }: Props) {
  const t = await getTranslations("alerts.editor");
  const intervals = Object.keys(INTERVALS).map((i) => ({ value: i, label: t(`intervals.${i}`) }));
  const v = (k: string) => values[k] ?? "";
  const frequencyFields = (p: "events" | "users") => (
    <fieldset>
      <legend>{t(`${p}Title`)}</legend>
      <Check name={`${p}On`} label={t(`${p}On`)} values={values} />
      <Field name={`${p}Value`} label={t("moreThan")} type="number" defaultValue={v(`${p}Value`) || "100"} />
      <Field name={`${p}Interval`} label={t("interval")} defaultValue={v(`${p}Interval`) || "1h"} options={intervals} />
      <Check name={`${p}Once`} label={t("firstTimeOnly")} values={values} />
    </fieldset>
  );
  const targets = [
    { value: "", label: t("none") },
    { value: "IssueOwners", label: t("issueOwners") },
    ...teams.map((x) => ({ value: `Team:${x.id}`, label: `${t("team")} #${x.slug}` })),
    ...members.map((m) => ({ value: `Member:${m.userId}`, label: `${m.name || m.email} <${m.email}>` })),
  ];
  return (
    <ActionForm action={action} successMessage={t("saved")} testId="alert-rule-form">
      <Field name="name" label={t("name")} defaultValue={v("name")} required />
      <Field name="environment" label={t("environment")} defaultValue={v("environment")} placeholder={t("allEnvironments")} />
      <Field
        name="actionMatch"
        label={t("actionMatch")}
        defaultValue={v("actionMatch")}
        options={[
          { value: "all", label: t("matchAll") },
          { value: "any", label: t("matchAny") },
        ]}
      />
      <Field
        name="filterMatch"
        label={t("filterMatch")}
        defaultValue={v("filterMatch")}
        options={[
          { value: "all", label: t("matchAll") },
          { value: "any", label: t("matchAny") },
          { value: "none", label: t("matchNone") },
        ]}
      />
      <Field name="frequency" label={t("frequency")} type="number" defaultValue={v("frequency")} />
      <Check name="disabled" label={t("disabled")} values={values} />
      <fieldset>
        <legend>{t("conditions")}</legend>
        <Check name="firstSeen" label={t("firstSeen")} values={values} />
        <Check name="regression" label={t("regression")} values={values} />
        <Check name="reappeared" label={t("reappeared")} values={values} />
        {frequencyFields("events")}
        {frequencyFields("users")}
      </fieldset>
      <fieldset>
        <legend>{t("filters")}</legend>
        <Field
          name="levelMatch"
          label={t("levelMatch")}
          defaultValue={v("levelMatch")}
          options={[
            { value: "", label: t("none") },
            { value: "eq", label: t("eq") },
            { value: "gte", label: t("gte") },
            { value: "lte", label: t("lte") },
          ]}
        />
        <Field
          name="level"
          label={t("level")}
          defaultValue={v("level") || "40"}
          options={Object.entries(LEVELS).map(([n, name]) => ({ value: n, label: name }))}
        />
        <Field name="tagKey" label={t("tagKey")} defaultValue={v("tagKey")} />
        <Field
          name="tagMatch"
          label={t("tagMatch")}
          defaultValue={v("tagMatch") || "eq"}
          options={TAG_MATCHES.map((m) => ({ value: m, label: t(`tagMatches.${m}`) }))}
        />
        <Field name="tagValue" label={t("tagValue")} defaultValue={v("tagValue")} />
        <Check name="latestRelease" label={t("latestRelease")} values={values} />
        <Field name="release" label={t("release")} defaultValue={v("release")} />
        <Field
          name="ageComparison"
          label={t("ageComparison")}
          defaultValue={v("ageComparison") || "older"}
          options={[
            { value: "older", label: t("older") },
            { value: "newer", label: t("newer") },
          ]}
        />
        <Field name="ageValue" label={t("ageValue")} type="number" defaultValue={v("ageValue")} />
        <Field
          name="ageTime"
          label={t("ageTime")}
          defaultValue={v("ageTime") || "hour"}
          options={["minute", "hour", "day", "week"].map((u) => ({ value: u, label: t(`units.${u}`) }))}
        />
        <Field name="occurrences" label={t("occurrences")} type="number" defaultValue={v("occurrences")} />
        <Field
          name="assigned"
          label={t("assigned")}
          defaultValue={v("assigned")}
          options={[{ value: "", label: t("none") }, { value: "Unassigned", label: t("unassigned") }, ...targets.slice(2)]}
        />
        <Field
          name="category"
          label={t("category")}
          defaultValue={v("category")}
          options={[{ value: "", label: t("none") }, ...Object.keys(ISSUE_CATEGORIES).map((n) => ({ value: n, label: t(`categories.${n}`) }))]}
        />
        <p className="muted" data-testid="rule-category-hint">
          {t("categoryHint")}
        </p>
      </fieldset>
      <fieldset>
        <legend>{t("actions")}</legend>
        {mailReady ? null : (
          <p className="muted" data-testid="mail-unavailable">
            {t("mailUnavailable")}
          </p>
        )}
        <Field name="email" label={t("email")} defaultValue={v("email")} options={targets} />
        <Field
          name="fallthrough"
          label={t("fallthrough")}
          defaultValue={v("fallthrough") || "ActiveMembers"}
          options={[
            { value: "ActiveMembers", label: t("activeMembers") },
            { value: "AllMembers", label: t("allMembers") },
            { value: "NoOne", label: t("noOne") },
          ]}
        />
        <Field name="webhookUrl" label={t("webhookUrl")} type="url" defaultValue={v("webhookUrl")} />
        <Field name="slackUrl" label={t("slackUrl")} type="url" defaultValue={v("slackUrl")} />
        <Field name="discordUrl" label={t("discordUrl")} type="url" defaultValue={v("discordUrl")} />
        <Field name="teamsUrl" label={t("teamsUrl")} type="url" defaultValue={v("teamsUrl")} />
      </fieldset>
      <SubmitButton>{isNew ? t("create") : t("save")}</SubmitButton>
    </ActionForm>
  );
}
