// The tabs of the instance settings (superusers only): accounts and e-mail.
import { getTranslations } from "next-intl/server";
import { PageTabs } from "@/web/components/page-tabs";

export async function InstanceTabs({ locale, current }: { locale: string; current: "users" | "mail" }) {
  const t = await getTranslations("instanceMail");
  const tabs = [
    { id: "users", href: "/instance/users", label: t("tabUsers") },
    { id: "mail", href: "/instance/mail", label: t("tabMail") },
  ];
  return <PageTabs locale={locale} tabs={tabs} current={current} label={t("tabs")} />;
}
