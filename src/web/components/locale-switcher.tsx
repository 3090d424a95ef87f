"use client";
// Switches the dashboard language, keeping the current page; the choice is remembered in the NEXT_LOCALE cookie.
import { useLocale, useTranslations } from "next-intl";
import { Link, usePathname } from "../../i18n/navigation";
import { LOCALES } from "../../i18n/routing";

export function LocaleSwitcher() {
  const t = useTranslations("nav");
  const pathname = usePathname();
  const current = useLocale();
  return (
    <nav className="locale-switcher" aria-label={t("language")}>
      {LOCALES.map((l) => (
        <Link key={l} href={pathname} locale={l} aria-current={l === current ? "true" : undefined} hrefLang={l}>
          {l.toUpperCase()}
        </Link>
      ))}
    </nav>
  );
}
