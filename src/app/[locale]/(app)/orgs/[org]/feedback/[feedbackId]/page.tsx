// One user feedback (issue 19): its message, who sent it (name, e-mail, user), from where (page URL, browser, OS,
// device, environment, release, tags, as its feedback event tells), the associated event and issue, and its triage.
import { getTranslations } from "next-intl/server";
import { getFeedbackView } from "@/core/feedback";
import { getOrganization } from "@/core/organizations";
import { LocaleLink } from "@/i18n/locale-link";
import { FeedbackTriage } from "@/web/components/feedback/feedback-triage";
import { KeyValues } from "@/web/components/issue/key-values";
import { OrgNav } from "@/web/components/org-nav";
import { formatDate } from "@/web/format";
import { loadOrNotFound } from "@/web/load";
import { requireCore } from "@/web/session";

export const dynamic = "force-dynamic";

export default async function FeedbackPage({ params }: { params: { locale: string; org: string; feedbackId: string } }) {
  const core = await requireCore(params.locale, `/${params.locale}/orgs/${params.org}/feedback/${params.feedbackId}`);
  const { org } = await loadOrNotFound(() => getOrganization(core, params.org));
  const { feedback: f, assignee, members, may } = await loadOrNotFound(() => getFeedbackView(core, org.slug, params.feedbackId));
  const t = await getTranslations("feedback");
  const l = params.locale;
  const d = f.details;
  const facts: [string, unknown][] = [
    [t("name"), f.name],
    [t("email"), f.email],
    [t("url"), f.url],
    [t("browser"), d.browser],
    [t("os"), d.os],
    [t("device"), d.device],
    [t("environment"), d.environment],
    [t("release"), d.release],
    [t("project"), f.projectSlug],
    [t("received"), formatDate(l, f.receivedAt)],
    [t("source"), t(`sources.${f.source}`)],
    [t("status"), t(`filters.${f.status}`)],
    [t("assignee"), assignee ? assignee.name || assignee.email : t("nobody")],
  ];
  return (
    <>
      <OrgNav org={org} current="feedback" />
      <p className="crumbs">
        <LocaleLink locale={l} href={`/orgs/${org.slug}/feedback`}>
          {t("back")}
        </LocaleLink>
      </p>
      <h1>{t("title")}</h1>
      <section className="card">
        <h2>{t("message")}</h2>
        <p className="note-text" data-testid="feedback-message">
          {f.message}
        </p>
        {may.update ? <FeedbackTriage locale={l} org={org.slug} feedback={f} members={members} /> : null}
      </section>
      <section className="card">
        <h2>{t("details")}</h2>
        <KeyValues values={facts} testId="feedback-facts" />
        {d.user ? (
          <>
            <h3>{t("user")}</h3>
            <KeyValues values={d.user} testId="feedback-user" />
          </>
        ) : null}
        {d.tags && d.tags.length > 0 ? (
          <>
            <h3>{t("tags")}</h3>
            <KeyValues values={d.tags} testId="feedback-tags" />
          </>
        ) : null}
        {d.notes && d.notes.length > 0 ? (
          <>
            <h3>{t("notes")}</h3>
            <ul>
              {d.notes.map((n) => (
                <li key={n}>{n}</li>
              ))}
            </ul>
          </>
        ) : null}
      </section>
      {f.associatedEventId ? (
        <section className="card" data-testid="feedback-links">
          <h2>{t("event")}</h2>
          {f.issue ? (
            <p>
              {t("issue")}:{" "}
              <LocaleLink locale={l} href={`/orgs/${org.slug}/issues/${f.issue.id}`} data-testid="feedback-issue-link">
                {f.issue.title}
              </LocaleLink>
              {f.eventStored ? (
                <>
                  {" · "}
                  <LocaleLink locale={l} href={`/orgs/${org.slug}/issues/${f.issue.id}/events/${f.associatedEventId}`} data-testid="feedback-event-link">
                    {t("openEvent")}
                  </LocaleLink>
                </>
              ) : null}
            </p>
          ) : (
            <p className="muted">{t("eventMissing", { eventId: f.associatedEventId })}</p>
          )}
        </section>
      ) : null}
    </>
  );
}
