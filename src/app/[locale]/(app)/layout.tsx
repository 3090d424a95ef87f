// Signed-in shell: header with navigation, account and language. Pages still check access themselves.
import { getTranslations } from "next-intl/server";
import type { ReactNode } from "react";
import { Link } from "@/i18n/navigation";
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
        <Link href="/orgs" className="brand">
          Faultline
        </Link>
        <nav aria-label={t("main")} className="main-nav">
          <Link href="/orgs">{t("organizations")}</Link>
          <a href={`/${locale}/docs`}>{t("docs")}</a>
          {user ? <Link href="/account">{t("account")}</Link> : null}
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
