// The tab bar under a page's breadcrumbs (organization, project and account sections).
import { Link } from "@/i18n/navigation";

export type Tab = { id: string; href: string; label: string };

export function PageTabs({ tabs, current, label }: { tabs: Tab[]; current: string; label: string }) {
  return (
    <nav className="tabs" aria-label={label}>
      {tabs.map((tab) => (
        <Link key={tab.id} href={tab.href} aria-current={tab.id === current ? "page" : undefined}>
          {tab.label}
        </Link>
      ))}
    </nav>
  );
}
