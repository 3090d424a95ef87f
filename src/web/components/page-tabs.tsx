// The tab bar under a page's breadcrumbs (organization, project and account sections).
import { LocaleLink } from "@/i18n/locale-link";

export type Tab = { id: string; href: string; label: string };

export function PageTabs({ locale, tabs, current, label }: { locale: string; tabs: Tab[]; current: string; label: string }) {
  return (
    <nav className="tabs" aria-label={label}>
      {tabs.map((tab) => (
        <LocaleLink locale={locale} key={tab.id} href={tab.href} aria-current={tab.id === current ? "page" : undefined}>
          {tab.label}
        </LocaleLink>
      ))}
    </nav>
  );
}
