// Signed-in shell: header with navigation, account and language. Pages still check access themselves.
import { getTranslations } from "next-intl/server";
import type { ReactNode } from "react";
import { LocaleLink } from "@/i18n/locale-link";
import { signOutAction } from "@/web/actions/auth.action";
import { LocaleSwitcher } from "@/web/components/locale-switcher";
import { ThemeSwitch } from "@/web/components/theme-switch";
import { getCurrentUser } from "@/web/session";

export default async function AppLayout({ children, params: { locale } }: { children: ReactNode; params: { locale: string } }) {
  const t = await getTranslations("nav");
  const user = await getCurrentUser();
  return (
    <div className="app-shell">
      <header className="app-header">
        <LocaleLink locale={locale} href="/orgs" className="brand">
          Faultline
        </LocaleLink>
        <nav aria-label={t("main")} className="main-nav">
          <LocaleLink locale={locale} href="/orgs">{t("organizations")}</LocaleLink>
          <a href={`/${locale}/docs`}>{t("docs")}</a>
          {user ? <LocaleLink locale={locale} href="/account">{t("account")}</LocaleLink> : null}
          {user?.isSuperuser ? <LocaleLink locale={locale} href="/instance/users">{t("instance")}</LocaleLink> : null}
        </nav>
        <div className="header-end">
          <ThemeSwitch />
          <LocaleSwitcher />
          {user ? (
            <form action={signOutAction.bind(null, locale)}>
              <span className="muted user-email">{user.email}</span>{" "}
              <button type="submit" className="button secondary">
                {t("signOut")}
              </button>
            </form>
          ) : null}
        </div>
      </header>
      <main className="content">{children}</main>
    </div>
  );
}
