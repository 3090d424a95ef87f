// The Pages Router's 404 page, with the same look as the dashboard's; its language follows the URL.
import Head from "next/head";
import { useRouter } from "next/router";
import de from "../i18n/messages/de.json";
import en from "../i18n/messages/en.json";
import { NotFoundView } from "../web/components/not-found-view";

export default function DocsNotFound() {
  const router = useRouter();
  const locale = router.asPath.split("/")[1] === "de" ? "de" : "en";
  const t = (locale === "de" ? de : en).notFound;
  return (
    <>
      <Head>
        <title>{`${t.title} · Faultline`}</title>
      </Head>
      <NotFoundView title={t.title} body={t.body} back={t.back} href={`${router.basePath}/${locale}`} />
    </>
  );
}
