// A feedback's triage on its page: resolve it, mark it as spam or move it back to new, and assign it to a member.
import { getTranslations } from "next-intl/server";
import type { Feedback, FeedbackStatus } from "@/storage/feedback-ports";
import type { Member } from "@/storage/ports";
import { assignFeedbackAction, setFeedbackStatusAction } from "@/web/actions/feedback.action";
import { ActionForm, Field, SubmitButton } from "../action-form";

export async function FeedbackTriage({ locale, org, feedback, members }: { locale: string; org: string; feedback: Feedback; members: Member[] }) {
  const t = await getTranslations("feedback");
  const moves: { status: FeedbackStatus; label: string }[] = [
    ...(feedback.status !== "resolved" ? [{ status: "resolved" as const, label: t("markResolved") }] : []),
    ...(feedback.status !== "spam" ? [{ status: "spam" as const, label: t("markSpam") }] : []),
    ...(feedback.status !== "new" ? [{ status: "new" as const, label: t("markNew") }] : []),
  ];
  const options = [{ value: "", label: t("nobody") }, ...members.map((m) => ({ value: m.userId, label: m.name ? `${m.name} <${m.email}>` : m.email }))];
  return (
    <div className="row" data-testid="feedback-triage">
      {moves.map((m, i) => (
        <ActionForm
          key={m.status}
          action={setFeedbackStatusAction.bind(null, locale, org, feedback.id, m.status)}
          className="inline-form"
          testId={`feedback-${m.status}-form`}
        >
          <SubmitButton variant={i === 0 ? undefined : "secondary"}>{m.label}</SubmitButton>
        </ActionForm>
      ))}
      <ActionForm action={assignFeedbackAction.bind(null, locale, org, feedback.id)} className="inline-form" testId="feedback-assign-form">
        <Field name="assignee" label={t("assignee")} options={options} defaultValue={feedback.assigneeUserId ?? ""} />
        <SubmitButton variant="secondary">{t("assign")}</SubmitButton>
      </ActionForm>
    </div>
  );
}
