// Project stats: outcome counts by outcome, data category and reason, for the last day and the last 30 days.
import { getTranslations } from "next-intl/server";
import type { CoreContext } from "@/core/context";
import { projectOutcomeTotals } from "@/core/stats";
import type { OutcomeTotal, Organization, Project } from "@/storage/ports";

async function OutcomeTable({ title, totals, testId }: { title: string; totals: OutcomeTotal[]; testId: string }) {
  const t = await getTranslations("projectSettings.stats");
  return (
    <section className="card" data-testid={testId}>
      <h2>{title}</h2>
      {totals.length === 0 ? (
        <p className="muted">{t("empty")}</p>
      ) : (
        <table className="table">
          <thead>
            <tr>
              <th scope="col">{t("outcome")}</th>
              <th scope="col">{t("category")}</th>
              <th scope="col">{t("reason")}</th>
              <th scope="col" className="num">
                {t("quantity")}
              </th>
            </tr>
          </thead>
          <tbody>
            {totals.map((o) => (
              <tr key={`${o.outcome}/${o.category}/${o.reason}`}>
                <td>{t(`outcomes.${o.outcome}`)}</td>
                <td>
                  <code>{o.category}</code>
                </td>
                <td>{o.reason ? <code>{o.reason}</code> : "—"}</td>
                <td className="num">{o.quantity.toLocaleString()}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

export async function StatsSection({ core, org, project }: { core: CoreContext; org: Organization; project: Project }) {
  const t = await getTranslations("projectSettings.stats");
  const [day, month] = await Promise.all([projectOutcomeTotals(core, org.slug, project.slug, 1), projectOutcomeTotals(core, org.slug, project.slug, 30)]);
  return (
    <>
      <p>{t("intro")}</p>
      <OutcomeTable title={t("last24h")} totals={day} testId="stats-24h" />
      <OutcomeTable title={t("last30d")} totals={month} testId="stats-30d" />
    </>
  );
}
