// 404 for every URL no route matches, in the URL's locale, rendered on the server.
import { getLocale, getTranslations } from "next-intl/server";
import { NotFoundView } from "@/web/components/not-found-view";
import { notFoundMetadata } from "@/web/not-found-metadata";

export const generateMetadata = notFoundMetadata;

export default async function RootNotFound() {
  const locale = await getLocale();
  const t = await getTranslations({ locale, namespace: "notFound" });
  return <NotFoundView title={t("title")} body={t("body")} back={t("back")} href={`${process.env.FAULTLINE_BASE_PATH ?? ""}/${locale}`} />;
}
