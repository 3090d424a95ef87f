// What happened before the event, as a timeline: time (UTC), category, level, message and data.
import { getTranslations } from "next-intl/server";
import { BreadcrumbList } from "./breadcrumb-list";
import type { Breadcrumb } from "./event-view";

export async function Breadcrumbs({ breadcrumbs }: { breadcrumbs: Breadcrumb[] }) {
  const t = await getTranslations("issueDetail.breadcrumbs");
  return (
    <section className="card" aria-labelledby="breadcrumbs-title" data-testid="breadcrumbs">
      <h2 id="breadcrumbs-title">{t("title")}</h2>
      <BreadcrumbList breadcrumbs={breadcrumbs} />
    </section>
  );
}
