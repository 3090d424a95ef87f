import { getTranslations } from "next-intl/server";
import type { ReactNode } from "react";
import { LocaleSwitcher } from "@/web/components/locale-switcher";
import { ThemeSwitch } from "@/web/components/theme-switch";

export default async function AuthLayout({ children, params: { locale } }: { children: ReactNode; params: { locale: string } }) {
  const t = await getTranslations("nav");
  return (
    <div className="auth-shell">
      <header className="auth-header">
        <span className="brand">Faultline</span>
        <div className="header-end">
          <ThemeSwitch />
          <LocaleSwitcher label={t("language")} current={locale} />
        </div>
      </header>
      <main className="card auth-card">{children}</main>
    </div>
  );
}
