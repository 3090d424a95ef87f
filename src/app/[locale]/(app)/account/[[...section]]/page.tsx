// Account settings: password (default of the optional catch-all), personal API tokens and notifications.
import { notFound } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { listTokens } from "@/core/tokens";
import { changePasswordAction } from "@/web/actions/auth.action";
import { createTokenAction, deleteTokenAction } from "@/web/actions/tokens.action";
import { ActionForm, Field, SubmitButton } from "@/web/components/action-form";
import { AccountNotifications } from "@/web/components/notifications/account-notifications";
import { PageTabs } from "@/web/components/page-tabs";
import { requireCore } from "@/web/session";

export const dynamic = "force-dynamic";

export default async function AccountPage({ params }: { params: { locale: string; section?: string[] } }) {
  const [section = "password", ...extra] = params.section ?? [];
  if (extra.length > 0 || (section !== "password" && section !== "tokens" && section !== "notifications")) notFound();
  const core = await requireCore(params.locale, `/${params.locale}/account`);
  const t = await getTranslations("account");
  return (
    <>
      <div className="page-head">
        <PageTabs
          locale={params.locale}
          label={t("title")}
          current={section}
          tabs={[
            { id: "password", href: "/account", label: t("tabs.password") },
            { id: "tokens", href: "/account/tokens", label: t("tabs.tokens") },
            { id: "notifications", href: "/account/notifications", label: t("tabs.notifications") },
          ]}
        />
      </div>
      <h1>{t(`${section}Title`)}</h1>
      {section === "notifications" ? (
        <AccountNotifications locale={params.locale} core={core} />
      ) : section === "password" ? (
        <section className="card">
          <ActionForm action={changePasswordAction.bind(null, params.locale)} testId="password-form">
            <Field name="currentPassword" label={t("currentPassword")} type="password" autoComplete="current-password" required />
            <Field name="newPassword" label={t("newPassword")} type="password" autoComplete="new-password" required />
            <Field name="confirmPassword" label={t("confirmPassword")} type="password" autoComplete="new-password" required />
            <SubmitButton>{t("changePassword")}</SubmitButton>
          </ActionForm>
        </section>
      ) : (
        <>
          <p className="muted">{t("tokensHint")}</p>
          <table className="table" data-testid="token-table">
            <tbody>
              {(await listTokens(core)).map((tok) => (
                <tr key={tok.id}>
                  <td>
                    <strong>{tok.name}</strong> <span className="muted">…{tok.tokenSuffix}</span>
                  </td>
                  <td className="muted">{tok.lastUsedAt ? t("lastUsed", { date: tok.lastUsedAt.slice(0, 10) }) : t("neverUsed")}</td>
                  <td className="actions">
                    <ActionForm action={deleteTokenAction.bind(null, params.locale, tok.id)} className="inline-form">
                      <SubmitButton variant="danger">{t("revoke")}</SubmitButton>
                    </ActionForm>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <section className="card">
            <h2>{t("createToken")}</h2>
            <ActionForm action={createTokenAction.bind(null, params.locale)} successMessage={t("tokenCreated")} testId="create-token-form">
              <Field name="name" label={t("tokenName")} required />
              <SubmitButton>{t("create")}</SubmitButton>
            </ActionForm>
          </section>
        </>
      )}
    </>
  );
}
