// The data scrubbing settings of an organization or a project (issue 18): Sentry's options, the advanced rules as
// "[Method] [Type] from [Source]" with a preview on the project's newest event before saving, and the same rules as
// Relay's JSON. Read-only for those who may not change them.
import { getTranslations } from "next-intl/server";
import { PII_METHODS, PII_RULE_TYPES, SUGGESTED_SOURCES, screenRules } from "@/core/pii-rules";
import type { ScrubbingOptions } from "@/core/data-scrubbing";
import {
  type ScrubbingTarget,
  addScrubbingRuleAction,
  removeScrubbingRuleAction,
  saveRelayPiiConfigAction,
  saveScrubbingOptionsAction,
} from "@/web/actions/data-scrubbing.action";
import { ActionForm, Field, SubmitButton } from "./action-form";

/** The stored rules indented for editing (they were checked when saved; anything else is shown as it is). */
function pretty(text: string | null): string {
  if (!text) return "";
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

type Props = { locale: string; target: ScrubbingTarget; options: ScrubbingOptions; editable: boolean };

function Check({ name, label, checked, editable }: { name: string; label: string; checked: boolean; editable: boolean }) {
  return (
    <p>
      <label className="check-field">
        <input type="checkbox" name={name} defaultChecked={checked} disabled={!editable} data-testid={`scrub-${name}`} /> {label}
      </label>
    </p>
  );
}

export async function ScrubbingSettings({ locale, target, options, editable }: Props) {
  const t = await getTranslations("scrubbing");
  const rules = screenRules(options.relayPiiConfig);
  const scope = target.project ? "project" : "organization";
  return (
    <>
      <section className="card" aria-labelledby="scrub-options-title">
        <h2 id="scrub-options-title">{t("optionsTitle")}</h2>
        <p className="muted">{t(`${scope}Intro`)}</p>
        <ActionForm action={saveScrubbingOptionsAction.bind(null, locale, target)} successMessage={t("saved")} testId="scrubbing-options-form">
          <Check name="dataScrubber" label={t(`${scope}.dataScrubber`)} checked={options.dataScrubber} editable={editable} />
          <Check name="dataScrubberDefaults" label={t(`${scope}.dataScrubberDefaults`)} checked={options.dataScrubberDefaults} editable={editable} />
          <Check name="scrubIPAddresses" label={t(`${scope}.scrubIPAddresses`)} checked={options.scrubIPAddresses} editable={editable} />
          {editable ? (
            <>
              <Field
                name="sensitiveFields"
                type="textarea"
                label={t("sensitiveFields")}
                defaultValue={options.sensitiveFields.join("\n")}
                placeholder="email"
              />
              <Field name="safeFields" type="textarea" label={t("safeFields")} defaultValue={options.safeFields.join("\n")} placeholder="business-email" />
              <SubmitButton>{t("save")}</SubmitButton>
            </>
          ) : (
            <dl className="facts">
              <dt>{t("sensitiveFields")}</dt>
              <dd>{options.sensitiveFields.join(", ") || "—"}</dd>
              <dt>{t("safeFields")}</dt>
              <dd>{options.safeFields.join(", ") || "—"}</dd>
            </dl>
          )}
        </ActionForm>
      </section>
      <section className="card" aria-labelledby="scrub-rules-title">
        <h2 id="scrub-rules-title">{t("rulesTitle")}</h2>
        <p className="muted">{t("rulesIntro")}</p>
        {rules.length === 0 ? (
          <p className="muted" data-testid="scrub-no-rules">
            {t("noRules")}
          </p>
        ) : (
          <ul className="plain-list" data-testid="scrub-rules">
            {rules.map((r) => (
              <li key={`${r.source}\u0000${r.id}`} data-testid="scrub-rule">
                <code>{`[${t.has(`method.${r.method}`) ? t(`method.${r.method}`) : r.method}] [${t.has(`type.${r.type}`) ? t(`type.${r.type}`) : r.type}${r.pattern ? ` ${r.pattern}` : ""}] ${t("from")} [${r.source}]`}</code>
                {editable ? (
                  <ActionForm action={removeScrubbingRuleAction.bind(null, locale, target)} className="inline-form" testId="scrub-rule-remove">
                    <input type="hidden" name="id" value={r.id} />
                    <input type="hidden" name="source" value={r.source} />
                    <SubmitButton variant="secondary">{t("remove")}</SubmitButton>
                  </ActionForm>
                ) : null}
              </li>
            ))}
          </ul>
        )}
        {editable ? (
          <ActionForm action={addScrubbingRuleAction.bind(null, locale, target)} testId="scrub-rule-form">
            <Field name="method" label={t("methodLabel")} defaultValue="replace" options={PII_METHODS.map((m) => ({ value: m, label: t(`method.${m}`) }))} />
            <Field name="type" label={t("typeLabel")} defaultValue="password" options={PII_RULE_TYPES.map((v) => ({ value: v, label: t(`type.${v}`) }))} />
            <Field name="source" label={t("sourceLabel")} defaultValue="$string" placeholder={SUGGESTED_SOURCES.join("  ")} />
            <p className="muted">{t("sourceHelp", { examples: SUGGESTED_SOURCES.join(", ") })}</p>
            <Field name="pattern" label={t("patternLabel")} placeholder="[a-f0-9]{12}" />
            <Field name="placeholder" label={t("placeholderLabel")} placeholder="[Filtered]" />
            <p className="actions">
              {target.project ? (
                <SubmitButton variant="secondary" name="intent" value="preview">
                  {t("preview")}
                </SubmitButton>
              ) : null}{" "}
              <SubmitButton name="intent" value="add">
                {t("add")}
              </SubmitButton>
            </p>
          </ActionForm>
        ) : null}
      </section>
      <section className="card" aria-labelledby="scrub-json-title">
        <h2 id="scrub-json-title">{t("jsonTitle")}</h2>
        <p className="muted">{t("jsonIntro")}</p>
        {editable ? (
          <ActionForm action={saveRelayPiiConfigAction.bind(null, locale, target)} successMessage={t("saved")} testId="scrub-json-form">
            <Field name="relayPiiConfig" type="textarea" label="relayPiiConfig" defaultValue={pretty(options.relayPiiConfig)} />
            <SubmitButton>{t("save")}</SubmitButton>
          </ActionForm>
        ) : (
          <pre data-testid="scrub-json">{options.relayPiiConfig ?? "—"}</pre>
        )}
      </section>
    </>
  );
}
