// The issue page's user feedback (issue 19): what people said about the issue's events (feedback whose associated
// event is one of them), newest first, spam left out; each opens in the organization's feedback inbox.
import { getTranslations } from "next-intl/server";
import { listIssueFeedback } from "@/core/feedback";
import type { CoreContext } from "@/core/context";
import { LocaleLink } from "@/i18n/locale-link";
import { formatDate } from "@/web/format";

export async function IssueFeedback({ core, locale, org, issueId }: { core: CoreContext; locale: string; org: string; issueId: number }) {
  const items = await listIssueFeedback(core, issueId);
  if (items.length === 0) return null;
  const t = await getTranslations("feedback");
  return (
    <section className="card" aria-labelledby="issue-feedback-title" data-testid="issue-feedback">
      <h2 id="issue-feedback-title">{t("issueSection")}</h2>
      <ul className="timeline">
        {items.map((f) => (
          <li key={f.id} className="timeline-item" data-testid="issue-feedback-item">
            <div>
              <p className="note-text">{f.message}</p>
              <p className="muted">
                {f.name || f.email || t("anonymous")} · {formatDate(locale, f.receivedAt)} ·{" "}
                <LocaleLink locale={locale} href={`/orgs/${org}/feedback/${f.id}`}>
                  {t("openFeedback")}
                </LocaleLink>
              </p>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
