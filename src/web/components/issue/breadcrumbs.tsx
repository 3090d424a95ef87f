// What happened before the event, as a timeline: time (UTC), category, level, message and data.
import { getTranslations } from "next-intl/server";
import { BreadcrumbList } from "./breadcrumb-list";
import type { Breadcrumb } from "./event-view";

export async function Breadcrumbs({ breadcrumbs }: { breadcrumbs: Breadcrumb[] }) {
  const t = await getTranslations("issueDetail.breadcrumbs");
  // Only the fields the list shows go to the browser: the stored entries carry more (event_id).
  const shown = breadcrumbs.map(({ type, category, level, message, data, timestamp }): Breadcrumb => ({ type, category, level, message, data, timestamp }));
  return (
    <section className="card" aria-labelledby="breadcrumbs-title" data-testid="breadcrumbs">
      <h2 id="breadcrumbs-title">{t("title")}</h2>
      <BreadcrumbList breadcrumbs={shown} />
    </section>
  );
}
