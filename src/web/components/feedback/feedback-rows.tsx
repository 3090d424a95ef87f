// Rows of feedback (the inbox, an issue's feedback): the message's start, who sent it, the project, when, its status.
import { getTranslations } from "next-intl/server";
import { LocaleLink } from "@/i18n/locale-link";
import type { Feedback } from "@/storage/feedback-ports";
import { formatDate } from "@/web/format";

/** characters of a message shown in a row; the feedback's page shows it whole. */
const PREVIEW = 160;
const preview = (s: string) => (s.length > PREVIEW ? `${s.slice(0, PREVIEW)}…` : s);

export async function FeedbackRows({ locale, org, items, showStatus = true }: { locale: string; org: string; items: Feedback[]; showStatus?: boolean }) {
  const t = await getTranslations("feedback");
  return (
    <div className="table-scroll">
      <table className="table" data-testid="feedback-table">
        <thead>
          <tr>
            <th scope="col">{t("message")}</th>
            <th scope="col">{t("from")}</th>
            <th scope="col">{t("project")}</th>
            <th scope="col">{t("received")}</th>
            {showStatus ? <th scope="col">{t("status")}</th> : null}
          </tr>
        </thead>
        <tbody>
          {items.map((f) => (
            <tr key={f.id} data-testid="feedback-row">
              <td className="wrap">
                <LocaleLink locale={locale} href={`/orgs/${org}/feedback/${f.id}`}>
                  {preview(f.message) || "—"}
                </LocaleLink>
              </td>
              <td className="wrap">{f.name || f.email || t("anonymous")}</td>
              <td>{f.projectSlug}</td>
              <td>{formatDate(locale, f.receivedAt)}</td>
              {showStatus ? (
                <td>
                  <span className={`badge status-${f.status}`}>{t(`filters.${f.status}`)}</span>
                </td>
              ) : null}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
