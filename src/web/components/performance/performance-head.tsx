// The performance pages' head: the project's tabs, then the two views (transactions, web vitals) and the period.
import { getLocale, getTranslations } from "next-intl/server";
import { PERIODS, type Period } from "@/core/performance";
import { LocaleLink } from "@/i18n/locale-link";
import type { Organization, Project } from "@/storage/ports";
import { ProjectNav } from "../project-nav";

export async function PerformanceHead({
  org,
  project,
  view,
  period,
  extra,
}: {
  org: Organization;
  project: Project;
  view: "transactions" | "vitals";
  period: Period;
  extra?: string;
}) {
  const t = await getTranslations("performance");
  // One read of the locale for the links below, instead of one suspension per link (i18n/locale-link.tsx).
  const locale = await getLocale();
  const base = `/orgs/${org.slug}/projects/${project.slug}/performance`;
  const path = view === "vitals" ? `${base}/web-vitals` : base;
  return (
    <>
      <ProjectNav org={org} project={project} current="performance" />
      <h1>{t(view === "vitals" ? "vitalsTitle" : "title")}</h1>
      <div className="filter-bar">
        <nav aria-label={t("viewLabel")} className="segmented">
          <LocaleLink
            locale={locale}
            href={`${base}?period=${period}`}
            aria-current={view === "transactions" ? "true" : undefined}
            data-testid="view-transactions"
          >
            {t("transactionsTab")}
          </LocaleLink>
          <LocaleLink
            locale={locale}
            href={`${base}/web-vitals?period=${period}`}
            aria-current={view === "vitals" ? "true" : undefined}
            data-testid="view-vitals"
          >
            {t("vitalsTab")}
          </LocaleLink>
        </nav>
        <nav aria-label={t("periodLabel")} className="segmented">
          <span className="muted">{t("periodLabel")}:</span>
          {(Object.keys(PERIODS) as Period[]).map((p) => (
            <LocaleLink
              locale={locale}
              key={p}
              href={`${path}?period=${p}${extra ?? ""}`}
              aria-current={period === p ? "true" : undefined}
              data-testid={`period-${p}`}
            >
              {t(`period.${p}`)}
            </LocaleLink>
          ))}
        </nav>
      </div>
    </>
  );
}
