// The 404 pages' document title, in the URL's locale (a page without a title fails axe-core's document-title rule).
import type { Metadata } from "next";
import { getLocale, getTranslations } from "next-intl/server";

export async function notFoundMetadata(): Promise<Metadata> {
  const t = await getTranslations({ locale: await getLocale(), namespace: "notFound" });
  return { title: { absolute: `${t("title")} · Faultline` } };
}
