// Public SDK setup guides: static pages (getStaticProps) for every locale and guide. Opened from a project's setup
// page, the URL fragment carries the project's DSN (#dsn=…), which is filled into the code samples in the browser.
import type { GetStaticPaths, GetStaticProps } from "next";
import Head from "next/head";
import Link from "next/link";
import { useRouter } from "next/router";
import { useEffect, useState } from "react";
import { API_TEXT } from "../../../docs/api-reference";
import { DOCS, DOCS_LOCALES, type DocsLocale, DSN_PLACEHOLDER, GUIDE_SLUGS, getGuide, type Guide } from "../../../docs/guides";

type Props = { locale: DocsLocale; slug: string | null; guide: Guide | null; nav: { slug: string; title: string }[] };

const DSN_SHAPE = /^https?:\/\/[0-9a-f]{32}@[A-Za-z0-9.\-:[\]]+(\/[A-Za-z0-9._~\-/]*)?\/\d+$/;
const DSN_STORAGE_KEY = "faultline.docs.dsn";

export const getStaticPaths: GetStaticPaths = async () => ({
  paths: DOCS_LOCALES.flatMap((locale) => [{ params: { locale, slug: [] } }, ...GUIDE_SLUGS.map((s) => ({ params: { locale, slug: [s] } }))]),
  fallback: false,
});

export const getStaticProps: GetStaticProps<Props> = async ({ params }) => {
  const locale = params?.locale as DocsLocale;
  const slug = (params?.slug as string[] | undefined)?.[0] ?? null;
  const guide = slug ? (getGuide(locale, slug) ?? null) : null;
  if (slug && !guide) return { notFound: true };
  return { props: { locale, slug, guide, nav: DOCS[locale].guides.map((g) => ({ slug: g.slug, title: g.title })) } };
};

/** The DSN from the URL fragment (or from earlier in this tab), if it has a DSN's shape. */
function useDsn(): string | null {
  const [dsn, setDsn] = useState<string | null>(null);
  useEffect(() => {
    const fromHash = new URLSearchParams(window.location.hash.slice(1)).get("dsn");
    const candidate = fromHash ?? sessionStorage.getItem(DSN_STORAGE_KEY);
    // Only DSNs of this install: a link must not fill the guides with someone else's ingest address.
    if (candidate && DSN_SHAPE.test(candidate) && new URL(candidate).host === window.location.host) {
      sessionStorage.setItem(DSN_STORAGE_KEY, candidate);
      setDsn(candidate);
    }
  }, []);
  return dsn;
}

export default function DocsPage({ locale, slug, guide, nav }: Props) {
  const router = useRouter();
  const dsn = useDsn();
  const text = DOCS[locale];
  const fill = (s: string) => (dsn ? s.split(DSN_PLACEHOLDER).join(dsn) : s);
  const other = locale === "en" ? "de" : "en";
  return (
    <>
      <Head>
        <title>{`${guide ? guide.title : text.title} · Faultline`}</title>
      </Head>
      <header className="app-header">
        <a className="brand" href={`${router.basePath}/${locale}`}>
          Faultline
        </a>
        <nav className="main-nav" aria-label={text.nav}>
          <Link href={`/${locale}/docs`}>{text.nav}</Link>
        </nav>
        <div className="header-end locale-switcher">
          <Link href={`/${other}/docs${slug ? `/${slug}` : ""}`} hrefLang={other} data-testid="docs-locale-switch">
            {other.toUpperCase()}
          </Link>
        </div>
      </header>
      <div className="docs-shell">
        <nav className="docs-nav" aria-label={text.nav}>
          <ul>
            {nav.map((n) => (
              <li key={n.slug}>
                <Link href={`/${locale}/docs/${n.slug}`} aria-current={n.slug === slug ? "page" : undefined}>
                  {n.title}
                </Link>
              </li>
            ))}
            <li>
              <Link href={`/${locale}/docs/api`}>{API_TEXT[locale].nav}</Link>
            </li>
          </ul>
        </nav>
        <main className="docs-body" data-testid="docs-body">
          {guide ? (
            <>
              <h1>{guide.title}</h1>
              <p>{guide.summary}</p>
              <p className={dsn ? "form-ok" : "muted"} data-testid="dsn-note">
                {dsn ? text.dsnFilled : text.dsnMissing}
              </p>
              {guide.steps.map((step, i) => (
                <section key={step.title}>
                  <h2>
                    {i + 1}. {step.title}
                  </h2>
                  <p>{fill(step.body)}</p>
                  {step.code ? (
                    <pre data-lang={step.code.lang}>
                      <code>{fill(step.code.source)}</code>
                    </pre>
                  ) : null}
                </section>
              ))}
            </>
          ) : (
            <>
              <h1>{text.title}</h1>
              <p>{text.intro}</p>
              <ul className="tile-list">
                {text.guides.map((g) => (
                  <li key={g.slug}>
                    <Link className="tile" href={`/${locale}/docs/${g.slug}`}>
                      <strong>{g.title}</strong>
                      <span className="muted">{g.summary}</span>
                    </Link>
                  </li>
                ))}
              </ul>
            </>
          )}
          <p>
            <a href={`${router.basePath}/${locale}`}>{text.backToApp}</a>
          </p>
        </main>
      </div>
    </>
  );
}
