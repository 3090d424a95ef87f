// The dashboard's 404, in the URL's locale; the docs' pages/404 renders the same NotFoundView.
import { getLocale, getTranslations } from "next-intl/server";
import { NotFoundView } from "@/web/components/not-found-view";
import { notFoundMetadata } from "@/web/not-found-metadata";

export const generateMetadata = notFoundMetadata;

export default async function NotFound() {
  const locale = await getLocale();
  const t = await getTranslations("notFound");
  return <NotFoundView title={t("title")} body={t("body")} back={t("back")} href={`${process.env.FAULTLINE_BASE_PATH ?? ""}/${locale}`} />;
}
