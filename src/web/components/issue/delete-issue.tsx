// Delete the issue with its events, after a confirmation that needs no JavaScript.
import { getTranslations } from "next-intl/server";
import { deleteIssueAction } from "@/web/actions/issues.action";
import { ActionForm, SubmitButton } from "../action-form";

export async function DeleteIssue({ locale, org, projectSlug, issueId }: { locale: string; org: string; projectSlug: string; issueId: string }) {
  const t = await getTranslations("issueDetail.actions");
  return (
    <details className="popover" data-testid="delete-issue">
      <summary className="button danger">{t("delete")}</summary>
      <div className="popover-body" role="group" aria-label={t("delete")}>
        <p>{t("deleteConfirm")}</p>
        <ActionForm action={deleteIssueAction.bind(null, locale, org, projectSlug, issueId)} className="inline-form">
          <SubmitButton variant="danger">{t("deleteForever")}</SubmitButton>
        </ActionForm>
      </div>
    </details>
  );
}
