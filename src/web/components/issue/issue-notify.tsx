// The issue page's "Notifications": subscribe or unsubscribe, and who will be notified (those who hear of comments
// and regressions, and those the project's e-mail alerts reach).
import { getTranslations } from "next-intl/server";
import type { IssueNotifyList } from "@/core/issue-subscriptions";
import type { Recipient } from "@/storage/notification-settings-ports";
import { setIssueSubscriptionAction } from "@/web/actions/notifications.action";
import { ActionForm, SubmitButton } from "../action-form";

function People({ people, nobody, testId }: { people: Recipient[]; nobody: string; testId: string }) {
  if (people.length === 0)
    return (
      <p className="muted" data-testid={testId}>
        {nobody}
      </p>
    );
  return (
    <ul data-testid={testId}>
      {people.map((p) => (
        <li key={p.userId}>{p.name ? `${p.name} <${p.email}>` : p.email}</li>
      ))}
    </ul>
  );
}

export async function IssueNotify({ locale, org, issueId, notify }: { locale: string; org: string; issueId: string; notify: IssueNotifyList }) {
  const t = await getTranslations("notifications");
  const s = notify.subscription;
  const active = s?.isActive === true;
  const status = !s
    ? t("notSubscribed")
    : !active
      ? t("unsubscribedNote")
      : s.reason === "subscribed"
        ? t("subscribed")
        : t("subscribedBecause", { reason: t(`reason_${s.reason}`) });
  return (
    <section className="card" aria-labelledby="issue-notify-title" data-testid="issue-notify">
      <h2 id="issue-notify-title">{t("issueTitle")}</h2>
      <p data-testid="subscription-status">{status}</p>
      <ActionForm action={setIssueSubscriptionAction.bind(null, locale, org, issueId)} className="inline-form" testId="subscribe-form">
        <input type="hidden" name="subscribed" value={active ? "off" : "on"} />
        <SubmitButton variant="secondary">{active ? t("unsubscribe") : t("subscribe")}</SubmitButton>
      </ActionForm>
      <h3>{t("whoWorkflow")}</h3>
      <People people={notify.workflow} nobody={t("nobody")} testId="notify-workflow" />
      <h3>{t("whoAlerts")}</h3>
      <p className="muted">{t("whoAlertsHint")}</p>
      <People people={notify.alerts} nobody={t("nobody")} testId="notify-alerts" />
    </section>
  );
}
