// Resolve, resolve in the next release, ignore (with its conditions) or reopen the issue: one server action each.
import { getTranslations } from "next-intl/server";
import type { IssueStatus } from "@/storage/digest-ports";
import { type IssueStatusAction, setIssueStatusAction } from "@/web/actions/issues.action";
import { ActionForm, Field, SubmitButton } from "../action-form";

type Props = { locale: string; org: string; issueId: string; status: IssueStatus };

/** minutes; the ignore durations and counting windows offered, as Sentry's menus offer them. */
const DURATIONS = [30, 120, 360, 1440, 10080];
const WINDOWS = [60, 1440, 10080];

export async function StatusControls({ locale, org, issueId, status }: Props) {
  const t = await getTranslations("issueDetail.actions");
  const action = (s: IssueStatusAction) => setIssueStatusAction.bind(null, locale, org, issueId, s);
  const minutes = (m: number) => t(`minutes.${m}`);
  const windows = [{ value: "", label: t("ever") }, ...WINDOWS.map((m) => ({ value: String(m), label: t("per", { window: minutes(m) }) }))];
  if (status !== "unresolved") {
    return (
      <ActionForm action={action("unresolved")} className="inline-form" testId="unresolve-form">
        <SubmitButton>{t("unresolve")}</SubmitButton>
      </ActionForm>
    );
  }
  return (
    <>
      <ActionForm action={action("resolved")} className="inline-form" testId="resolve-form">
        <SubmitButton>{t("resolve")}</SubmitButton>
      </ActionForm>
      <ActionForm action={action("resolvedInNextRelease")} className="inline-form" testId="resolve-next-form">
        <SubmitButton variant="secondary">{t("resolveNext")}</SubmitButton>
      </ActionForm>
      <details className="popover" data-testid="ignore">
        <summary className="button secondary">{t("ignore")}</summary>
        <ActionForm action={action("ignored")} className="form popover-body" testId="ignore-form">
          <Field
            name="ignoreDuration"
            label={t("for")}
            options={[{ value: "", label: t("forever") }, ...DURATIONS.map((m) => ({ value: String(m), label: minutes(m) }))]}
          />
          <div className="row">
            <Field name="ignoreCount" type="number" label={t("untilCount")} />
            <Field name="ignoreWindow" label={t("window")} options={windows} />
          </div>
          <div className="row">
            <Field name="ignoreUserCount" type="number" label={t("untilUsers")} />
            <Field name="ignoreUserWindow" label={t("window")} options={windows} />
          </div>
          <SubmitButton variant="secondary">{t("ignoreSubmit")}</SubmitButton>
        </ActionForm>
      </details>
    </>
  );
}
