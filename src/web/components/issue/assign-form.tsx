// Assign the issue to a member of the organization or the project's team, or to nobody.
import { getTranslations } from "next-intl/server";
import type { Member, Team } from "@/storage/ports";
import { assignIssueAction } from "@/web/actions/issues.action";
import { ActionForm, Field, SubmitButton } from "../action-form";

type Props = { locale: string; org: string; issueId: string; current: string; members: Member[]; team: Team | null };

export async function AssignForm({ locale, org, issueId, current, members, team }: Props) {
  const t = await getTranslations("issueDetail.actions");
  const options = [
    { value: "", label: t("nobody") },
    ...members.map((m) => ({ value: `user:${m.userId}`, label: m.name ? `${m.name} <${m.email}>` : m.email })),
    ...(team ? [{ value: `team:${team.id}`, label: `#${team.slug}` }] : []),
  ];
  return (
    <ActionForm action={assignIssueAction.bind(null, locale, org, issueId)} className="inline-form" testId="assign-form">
      <Field name="assignedTo" label={t("assignee")} options={options} defaultValue={current} />
      <SubmitButton variant="secondary">{t("assign")}</SubmitButton>
    </ActionForm>
  );
}
