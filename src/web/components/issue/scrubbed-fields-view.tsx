// The issue page's list of scrubbed values (issue 18): people see that a value existed and which rule removed it.
import { getTranslations } from "next-intl/server";
import type { ScrubbedField } from "./scrubbed-fields";

const REMARKS = new Set(["x", "s", "m", "p", "e"]);

export async function ScrubbedFieldsView({ fields }: { fields: ScrubbedField[] }) {
  if (fields.length === 0) return null;
  const t = await getTranslations("scrubbing");
  return (
    <section className="card scrubbed-fields" aria-labelledby="scrubbed-title" data-testid="scrubbed-fields">
      <h2 id="scrubbed-title">{t("scrubbedTitle")}</h2>
      <p className="muted">{t("scrubbedIntro")}</p>
      <dl className="facts kv">
        {fields.map((f) => (
          <div key={f.path} className="kv-row" data-testid="scrubbed-field" data-path={f.path}>
            <dt>
              <code>{f.path}</code>
            </dt>
            <dd>
              {f.rules.map((r) => t("scrubbedBy", { rule: r.rule, remark: REMARKS.has(r.remark) ? t(`remark.${r.remark as "x"}`) : r.remark })).join("; ")}
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
