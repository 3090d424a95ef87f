// Account settings: password (default of the optional catch-all), two-factor sign-in, sessions, personal API tokens and notifications.
import { notFound } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { changePasswordAction } from "@/web/actions/auth.action";
import { ActionForm, Field, SubmitButton } from "@/web/components/action-form";
import { AccountSessions } from "@/web/components/account/account-sessions";
import { AccountTokens } from "@/web/components/account/account-tokens";
import { AccountTwoFactor } from "@/web/components/account/account-two-factor";
import { AccountNotifications } from "@/web/components/notifications/account-notifications";
import { PageTabs } from "@/web/components/page-tabs";
import { requireSessionCore } from "@/web/session";

export const dynamic = "force-dynamic";

export default async function AccountPage({
  params,
  searchParams,
}: {
  params: { locale: string; section?: string[] };
  searchParams: { required?: string; done?: string; count?: string };
}) {
  const [section = "password", ...extra] = params.section ?? [];
  if (extra.length > 0 || (section !== "password" && section !== "two-factor" && section !== "sessions" && section !== "tokens" && section !== "notifications"))
    notFound();
  const { core, sessionId } = await requireSessionCore(params.locale, `/${params.locale}/account${section === "password" ? "" : `/${section}`}`);
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
            { id: "two-factor", href: "/account/two-factor", label: t("tabs.twoFactor") },
            { id: "sessions", href: "/account/sessions", label: t("tabs.sessions") },
            { id: "tokens", href: "/account/tokens", label: t("tabs.tokens") },
            { id: "notifications", href: "/account/notifications", label: t("tabs.notifications") },
          ]}
        />
      </div>
      <h1>{t(section === "two-factor" ? "twoFactorTitle" : `${section}Title`)}</h1>
      {section === "two-factor" ? (
        <AccountTwoFactor
          locale={params.locale}
          core={core}
          requiredBy={typeof searchParams.required === "string" && /^[A-Za-z0-9_-]{1,50}$/.test(searchParams.required) ? searchParams.required : undefined}
          done={typeof searchParams.done === "string" ? searchParams.done : undefined}
        />
      ) : section === "sessions" ? (
        <AccountSessions
          locale={params.locale}
          core={core}
          sessionId={sessionId}
          done={typeof searchParams.done === "string" ? searchParams.done : undefined}
          count={typeof searchParams.count === "string" && /^\d{1,4}$/.test(searchParams.count) ? Number(searchParams.count) : undefined}
        />
      ) : section === "notifications" ? (
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
        <AccountTokens locale={params.locale} core={core} />
      )}
    </>
  );
}
