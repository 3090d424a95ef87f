// Layout of every localized page: rejects unknown locales. Every text is translated on the server; no client component
// uses next-intl (tests/core/i18n.test.ts), so no provider is needed here.
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { getTranslations, setRequestLocale } from "next-intl/server";
import type { ReactNode } from "react";
import { isLocale } from "@/i18n/routing";

export async function generateMetadata({ params }: { params: { locale: string } }): Promise<Metadata> {
  const t = await getTranslations({ locale: isLocale(params.locale) ? params.locale : "en", namespace: "common" });
  return { title: { default: "Faultline", template: "%s · Faultline" }, description: t("tagline") };
}

export default async function LocaleLayout({ children, params }: { children: ReactNode; params: { locale: string } }) {
  if (!isLocale(params.locale)) notFound();
  setRequestLocale(params.locale);
  return children;
}
