// The tabs of the instance settings (superusers only): accounts, e-mail, a person's data across organizations, the disk, security and single sign-on.
import { getTranslations } from "next-intl/server";
import { PageTabs } from "@/web/components/page-tabs";

export async function InstanceTabs({ locale, current }: { locale: string; current: "users" | "mail" | "personal-data" | "disk" | "security" | "sso" }) {
  const t = await getTranslations("instanceMail");
  const tp = await getTranslations("personalData");
  const ta = await getTranslations("audit");
  const tabs = [
    { id: "users", href: "/instance/users", label: t("tabUsers") },
    { id: "mail", href: "/instance/mail", label: t("tabMail") },
    { id: "personal-data", href: "/instance/personal-data", label: tp("instanceTitle") },
    { id: "disk", href: "/instance/disk", label: t("tabDisk") },
    { id: "security", href: "/instance/security", label: ta("securityTitle") },
    { id: "sso", href: "/instance/sso", label: t("tabSso") },
  ];
  return <PageTabs locale={locale} tabs={tabs} current={current} label={t("tabs")} />;
}
