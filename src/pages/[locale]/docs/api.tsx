// The web API reference: a static page per locale, beside the SDK guides.
import type { GetStaticPaths, GetStaticProps } from "next";
import Head from "next/head";
import Link from "next/link";
import { useRouter } from "next/router";
import { API_ENDPOINTS, API_TEXT } from "../../../docs/api-reference";
import { DOCS, DOCS_LOCALES, type DocsLocale } from "../../../docs/guides";

type Props = { locale: DocsLocale };

export const getStaticPaths: GetStaticPaths = async () => ({ paths: DOCS_LOCALES.map((locale) => ({ params: { locale } })), fallback: false });

export const getStaticProps: GetStaticProps<Props> = async ({ params }) => ({ props: { locale: params?.locale as DocsLocale } });

export default function ApiReferencePage({ locale }: Props) {
  const router = useRouter();
  const t = API_TEXT[locale];
  return (
    <>
      <Head>
        <title>{`${t.title} · Faultline`}</title>
      </Head>
      <header className="app-header">
        <a className="brand" href={`${router.basePath}/${locale}`}>
          Faultline
        </a>
        <nav className="main-nav" aria-label={DOCS[locale].nav}>
          <Link href={`/${locale}/docs`}>{DOCS[locale].nav}</Link>
        </nav>
      </header>
      <main className="content docs-body" data-testid="api-reference">
        <h1>{t.title}</h1>
        <p>{t.intro}</p>
        <table className="table">
          <thead>
            <tr>
              <th scope="col">{t.method}</th>
              <th scope="col">{t.path}</th>
              <th scope="col">{t.what}</th>
            </tr>
          </thead>
          <tbody>
            {API_ENDPOINTS.map((e) => (
              <tr key={`${e.method} ${e.path}`}>
                <td>{e.method}</td>
                <td>
                  <code>{e.path}</code>
                </td>
                <td>{e[locale]}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </main>
    </>
  );
}
