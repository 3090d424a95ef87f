// When the issue was first and last seen, in which releases, and how many events and users it counts.
import { getLocale, getTranslations } from "next-intl/server";
import { LocaleLink } from "@/i18n/locale-link";
import type { Issue } from "@/storage/issue-ports";
import { When } from "./when";

async function Release({ org, version }: { org: string; version: string | null }) {
  if (!version) return null;
  const t = await getTranslations("issueDetail.seen");
  // One read of the locale for the links below, instead of one suspension per link (i18n/locale-link.tsx).
  const locale = await getLocale();
  return (
    <>
      {" "}
      {t("inRelease")}{" "}
      <LocaleLink locale={locale} href={`/orgs/${org}/releases/${encodeURIComponent(version)}`}>
        {version}
      </LocaleLink>
    </>
  );
}

export async function IssueSeen({ org, issue, lastRelease }: { org: string; issue: Issue; lastRelease: string | null }) {
  const t = await getTranslations("issueDetail.seen");
  return (
    <section className="card" aria-labelledby="seen-title" data-testid="issue-seen">
      <h2 id="seen-title" className="visually-hidden">
        {t("title")}
      </h2>
      <dl className="facts">
        <dt>{t("events")}</dt>
        <dd data-testid="times-seen">{issue.timesSeen}</dd>
        <dt>{t("users")}</dt>
        <dd>{issue.userCount}</dd>
        <dt>{t("firstSeen")}</dt>
        <dd data-testid="first-seen">
          <When iso={issue.firstSeen} />
          <Release org={org} version={issue.firstRelease} />
        </dd>
        <dt>{t("lastSeen")}</dt>
        <dd data-testid="last-seen">
          <When iso={issue.lastSeen} />
          <Release org={org} version={lastRelease} />
        </dd>
      </dl>
    </section>
  );
}
