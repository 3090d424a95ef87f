// An organization's user feedback inbox (issue 19): newest first, by status (`?status=new|resolved|spam|all`, new by
// default), paged by id (`?before=`); each row opens the feedback.
import { getTranslations } from "next-intl/server";
import { listFeedbackInbox } from "@/core/feedback";
import { getOrganization } from "@/core/organizations";
import { LocaleLink } from "@/i18n/locale-link";
import { FeedbackRows } from "@/web/components/feedback/feedback-rows";
import { OrgNav } from "@/web/components/org-nav";
import { PageTabs } from "@/web/components/page-tabs";
import { formatCount } from "@/web/format";
import { loadOrNotFound } from "@/web/load";
import { requireCore } from "@/web/session";

export const dynamic = "force-dynamic";

type SearchParams = Record<string, string | string[] | undefined>;
const FILTERS = ["new", "resolved", "spam", "all"] as const;

export default async function FeedbackInboxPage({ params, searchParams }: { params: { locale: string; org: string }; searchParams: SearchParams }) {
  const core = await requireCore(params.locale, `/${params.locale}/orgs/${params.org}/feedback`);
  const { org } = await loadOrNotFound(() => getOrganization(core, params.org));
  const inbox = await loadOrNotFound(() =>
    listFeedbackInbox(core, org.slug, { status: searchParams.status, before: typeof searchParams.before === "string" ? searchParams.before : undefined }),
  );
  const t = await getTranslations("feedback");
  const l = params.locale;
  const current = inbox.status ?? "all";
  const base = `/orgs/${org.slug}/feedback`;
  const total = inbox.counts.new + inbox.counts.resolved + inbox.counts.spam;
  return (
    <>
      <OrgNav org={org} current="feedback" />
      <h1>{t("title")}</h1>
      <PageTabs
        locale={l}
        label={t("filterLabel")}
        current={current}
        tabs={FILTERS.map((f) => ({
          id: f,
          href: `${base}?status=${f}`,
          label: `${t(`filters.${f}`)} (${formatCount(l, f === "all" ? total : inbox.counts[f])})`,
        }))}
      />
      {inbox.items.length === 0 ? (
        <p className="muted" data-testid="feedback-empty">
          {t("empty")}
        </p>
      ) : (
        <FeedbackRows locale={l} org={org.slug} items={inbox.items} />
      )}
      {inbox.nextBefore ? (
        <p>
          <LocaleLink locale={l} className="button secondary" href={`${base}?status=${current}&before=${inbox.nextBefore}`} rel="next">
            {t("next")}
          </LocaleLink>
        </p>
      ) : null}
    </>
  );
}
