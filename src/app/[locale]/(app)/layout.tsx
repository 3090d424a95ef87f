// Signed-in shell: header with navigation, account and language. Pages still check access themselves.
import { getTranslations } from "next-intl/server";
import type { ReactNode } from "react";
import { LocaleLink } from "@/i18n/locale-link";
import { signOutAction } from "@/web/actions/auth.action";
import { LocaleSwitcher } from "@/web/components/locale-switcher";
import { RouteErrorTextsProvider } from "@/web/components/route-error-texts";
import { ThemeSwitch } from "@/web/components/theme-switch";
import { getCurrentUser } from "@/web/session";
import { FEEDBACK_BUTTON, FEEDBACK_LABELS } from "@/web/self-monitoring/feedback-widget-button";
import { selfMonitoringClientConfig } from "@/web/self-monitoring/server-config";

export default async function AppLayout({ children, params: { locale } }: { children: ReactNode; params: { locale: string } }) {
  const t = await getTranslations("nav");
  const errors = await getTranslations("errors");
  const user = await getCurrentUser();
  // "Report a problem": hidden until Faultline's own SDK has loaded and attached its feedback widget (feedback-widget.ts).
  const monitoring = user ? await selfMonitoringClientConfig() : null;
  const report = monitoring ? await getTranslations("reportProblem") : null;
  return (
    <div className="app-shell">
      <header className="app-header">
        <LocaleLink locale={locale} href="/orgs" className="brand">
          Faultline
        </LocaleLink>
        <nav aria-label={t("main")} className="main-nav">
          <LocaleLink locale={locale} href="/orgs">
            {t("organizations")}
          </LocaleLink>
          <a href={`/${locale}/docs`}>{t("docs")}</a>
          {user ? (
            <LocaleLink locale={locale} href="/account">
              {t("account")}
            </LocaleLink>
          ) : null}
          {user?.isSuperuser ? (
            <LocaleLink locale={locale} href="/instance/users">
              {t("instance")}
            </LocaleLink>
          ) : null}
        </nav>
        <div className="header-end">
          {report ? (
            <button
              type="button"
              className="button secondary"
              hidden
              {...{ [FEEDBACK_BUTTON]: "" }}
              data-labels={JSON.stringify(Object.fromEntries(FEEDBACK_LABELS.map((k) => [k, report(k)])))}
            >
              {report("triggerLabel")}
            </button>
          ) : null}
          <ThemeSwitch />
          <LocaleSwitcher label={t("language")} current={locale} />
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
      <main className="content">
        <RouteErrorTextsProvider texts={{ title: errors("title"), body: errors("body"), digest: errors("digest"), retry: errors("retry") }}>
          {children}
        </RouteErrorTextsProvider>
      </main>
    </div>
  );
}
