"use client";
// Switches the dashboard language, keeping the current page; the choice is remembered in the NEXT_LOCALE cookie (the
// middleware's locale detection reads it, as next-intl's own Link would have set it). Its label and the current locale
// come from the layout: no client component translates or loads next-intl, which kept about 10 kB of JavaScript
// (its message parser and context) out of every page's first load.
import Link from "next/link";
import { usePathname } from "next/navigation";
import { LOCALE_COOKIE, LOCALES } from "../../i18n/locales";

/** Remembers the choice as next-intl's Link does: for the whole base path, a year. */
function remember(locale: string): void {
  const { name, maxAge, sameSite } = LOCALE_COOKIE;
  document.cookie = `${name}=${locale}; path=${process.env.FAULTLINE_BASE_PATH || "/"}; max-age=${maxAge}; samesite=${sameSite}`;
}

export function LocaleSwitcher({ label, current }: { label: string; current: string }) {
  // The path under the base path, e.g. /de/orgs/acme; the same page in another language swaps its first segment.
  const pathname = usePathname() ?? `/${current}`;
  const rest = pathname.replace(/^\/[^/]+/, "");
  return (
    <nav className="locale-switcher" aria-label={label}>
      {LOCALES.map((l) => (
        <Link key={l} href={`/${l}${rest}`} aria-current={l === current ? "true" : undefined} hrefLang={l} onClick={() => remember(l)} prefetch={false}>
          {l.toUpperCase()}
        </Link>
      ))}
    </nav>
  );
}
