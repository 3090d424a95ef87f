// Layout of every localized page: rejects unknown locales and provides the messages client components read.
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { NextIntlClientProvider } from "next-intl";
import { getMessages, getTranslations, setRequestLocale } from "next-intl/server";
import type { ReactNode } from "react";
import { clientMessages } from "@/i18n/client-messages";
import { isLocale } from "@/i18n/routing";

export async function generateMetadata({ params }: { params: { locale: string } }): Promise<Metadata> {
  const t = await getTranslations({ locale: isLocale(params.locale) ? params.locale : "en", namespace: "common" });
  return { title: { default: "Faultline", template: "%s · Faultline" }, description: t("tagline") };
}

export default async function LocaleLayout({ children, params }: { children: ReactNode; params: { locale: string } }) {
  if (!isLocale(params.locale)) notFound();
  setRequestLocale(params.locale);
  const messages = await getMessages();
  return (
    <NextIntlClientProvider locale={params.locale} messages={clientMessages(messages)}>
      {children}
    </NextIntlClientProvider>
  );
}
