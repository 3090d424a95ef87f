// The forms of the activity log: a new comment, and editing or deleting one.
import { getTranslations } from "next-intl/server";
import { addCommentAction, deleteCommentAction, editCommentAction } from "@/web/actions/issue-comments.action";
import { ActionForm, Field, SubmitButton } from "../action-form";

type Target = { locale: string; org: string; issueId: string };

export async function AddComment({ locale, org, issueId }: Target) {
  const t = await getTranslations("issueDetail.activity");
  return (
    <ActionForm action={addCommentAction.bind(null, locale, org, issueId)} testId="add-comment" resetOnSuccess>
      <Field name="text" type="textarea" label={t("comment")} />
      <SubmitButton>{t("add")}</SubmitButton>
    </ActionForm>
  );
}

export async function EditComment({ locale, org, issueId, commentId, text }: Target & { commentId: number; text: string }) {
  const t = await getTranslations("issueDetail.activity");
  return (
    <details className="popover" data-testid="edit-comment">
      <summary className="button secondary">{t("edit")}</summary>
      <ActionForm action={editCommentAction.bind(null, locale, org, issueId, commentId)} className="form popover-body">
        <Field name="text" type="textarea" label={t("comment")} defaultValue={text} />
        <SubmitButton>{t("save")}</SubmitButton>
      </ActionForm>
    </details>
  );
}

export async function DeleteComment({ locale, org, issueId, commentId }: Target & { commentId: number }) {
  const t = await getTranslations("issueDetail.activity");
  return (
    <ActionForm action={deleteCommentAction.bind(null, locale, org, issueId, commentId)} className="inline-form" testId="delete-comment">
      <SubmitButton variant="danger">{t("delete")}</SubmitButton>
    </ActionForm>
  );
}
