// The records the digest set aside (core/dead-letters.ts): where each came from, when, what failed and how often;
// send one through the digest again, or discard it.
import { getTranslations } from "next-intl/server";
import type { CoreContext } from "@/core/context";
import { type DeadLetterRow, listDeadLetters } from "@/core/dead-letters";
import { discardDeadLetterAction, retryDeadLetterAction } from "@/web/actions/dead-letters.action";
import { ActionForm, SubmitButton } from "@/web/components/action-form";
import { TableHead } from "@/web/components/table-head";
import { formatDate } from "@/web/format";

type Labels = { retry: string; retryLabel: string; discard: string; discardLabel: string; outcomes: string; retriedAt: string; notResendable: string };

export async function DeadLettersSection({ core, locale }: { core: CoreContext; locale: string }) {
  const t = await getTranslations("diagnostics.deadLetters");
  const { items, total } = await listDeadLetters(core);
  return (
    <section aria-labelledby="dead-letters-title" data-testid="dead-letters">
      <h2 id="dead-letters-title">{t("title")}</h2>
      <p className="muted">{t("intro")}</p>
      {items.length === 0 ? (
        <p className="muted">{t("empty")}</p>
      ) : (
        <>
          {total > items.length ? <p className="muted">{t("newest", { shown: items.length, total })}</p> : null}
          <div className="table-scroll">
            <table className="table" data-testid="dead-letter-table">
              <caption className="visually-hidden">{t("caption")}</caption>
              <TableHead columns={[t("project"), t("item"), t("received"), t("setAside"), t("attempts"), t("error")]} actions={t("actions")} />
              <tbody>
                {items.map((d) => (
                  <Row
                    key={d.id}
                    letter={d}
                    locale={locale}
                    labels={{
                      retry: t("retry"),
                      retryLabel: t("retryLabel", { item: d.itemType, id: d.id }),
                      discard: t("discard"),
                      discardLabel: t("discardLabel", { item: d.itemType, id: d.id }),
                      outcomes: t("outcomes"),
                      retriedAt: d.retriedAt ? t("retriedAt", { date: formatDate(locale, d.retriedAt) }) : "",
                      notResendable: t("notResendable"),
                    }}
                  />
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </section>
  );
}

function Row({ letter: d, locale, labels }: { letter: DeadLetterRow; locale: string; labels: Labels }) {
  return (
    <tr data-testid={`dead-letter-${d.id}`}>
      <td>{d.projectSlug ? `${d.organizationSlug}/${d.projectSlug}` : labels.outcomes}</td>
      <td>
        <code>{d.itemType}</code>
        {d.eventId ? <code className="muted dead-letter-id">{d.eventId}</code> : null}
      </td>
      <td>{formatDate(locale, d.receivedAt)}</td>
      <td>{formatDate(locale, d.failedAt)}</td>
      <td>{d.attempts}</td>
      <td>
        <code className="dead-letter-error">{d.error}</code>
      </td>
      <td className="actions">
        <div className="dead-letter-actions">
          {d.retriedAt ? (
            <span className="muted">{labels.retriedAt}</span>
          ) : d.resendable ? (
            <ActionForm action={retryDeadLetterAction.bind(null, locale, d.id)} className="inline-form" testId={`retry-dead-letter-${d.id}`}>
              <SubmitButton>
                <span aria-hidden="true">{labels.retry}</span>
                <span className="visually-hidden">{labels.retryLabel}</span>
              </SubmitButton>
            </ActionForm>
          ) : (
            <span className="muted">{labels.notResendable}</span>
          )}
          <ActionForm action={discardDeadLetterAction.bind(null, locale, d.id)} className="inline-form" testId={`discard-dead-letter-${d.id}`}>
            <SubmitButton variant="danger">
              <span aria-hidden="true">{labels.discard}</span>
              <span className="visually-hidden">{labels.discardLabel}</span>
            </SubmitButton>
          </ActionForm>
        </div>
      </td>
    </tr>
  );
}
