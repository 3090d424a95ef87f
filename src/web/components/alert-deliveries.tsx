// Notifications with their delivery attempts (a rule's history, a project's failing deliveries): when, which issue,
// where to, the answer, retries. Failing ones are marked.
import { getTranslations } from "next-intl/server";
import type { NotificationWithAttempts } from "@/storage/alert-ports";
import type { NotificationAction } from "@/storage/notification-ports";

function target(a: NotificationAction): string {
  if ("url" in a) return a.url;
  if ("webhookUrl" in a) return a.webhookUrl;
  if ("email" in a) return a.email;
  return `e-mail: ${a.targetType}${a.targetIdentifier ? ` ${a.targetIdentifier}` : ""}`;
}

export async function DeliveryTable({ rows, testId }: { rows: NotificationWithAttempts[]; locale: string; testId: string }) {
  const t = await getTranslations("alerts.history");
  return (
    <table data-testid={testId}>
      <thead>
        <tr>
          <th scope="col">{t("when")}</th>
          <th scope="col">{t("issue")}</th>
          <th scope="col">{t("where")}</th>
          <th scope="col">{t("status")}</th>
          <th scope="col">{t("answer")}</th>
          <th scope="col">{t("retries")}</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((n) => {
          const last = n.attemptList[0];
          const failing = n.status === "failed" || (last !== undefined && !last.ok);
          const issue =
            n.payload.kind === "issue"
              ? `${n.payload.issue.shortId} ${n.payload.issue.title}`
              : n.payload.kind === "feedback"
                ? `${t("feedback")} #${n.payload.feedback.id}: ${n.payload.feedback.message.slice(0, 120)}`
                : "";
          return (
            <tr key={n.id} className={failing ? "failing" : undefined} data-failing={failing ? "true" : undefined}>
              <td>
                <time dateTime={n.createdAt}>{n.createdAt.replace("T", " ").slice(0, 19)}</time>
              </td>
              <td>{n.source === "test" ? `${t("test")} · ${issue}` : issue}</td>
              <td>{target(n.action)}</td>
              <td>
                {failing ? (
                  <strong>
                    {t(`statuses.${n.status}`)} · {t("failing")}
                  </strong>
                ) : (
                  t(`statuses.${n.status}`)
                )}
              </td>
              <td>
                {last
                  ? `${last.statusCode ?? "—"}${last.error ? ` ${last.error}` : ""}${last.responseExcerpt ? ` “${last.responseExcerpt.slice(0, 120)}”` : ""}`
                  : "—"}
              </td>
              <td>{Math.max(0, n.attempts - 1)}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
