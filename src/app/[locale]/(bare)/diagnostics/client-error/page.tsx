import { notFound } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { requireUser } from "@/web/session";
import { ClientErrorTrigger } from "./trigger";

export const dynamic = "force-dynamic";

export default async function ClientErrorDiagnostic({ params: { locale } }: { params: { locale: string } }) {
  const user = await requireUser(locale, `/${locale}/diagnostics/client-error`);
  if (!user.isSuperuser) notFound();
  const t = await getTranslations("diagnostics");
  return (
    <main className="content">
      <h1>{t("clientError")}</h1>
      <ClientErrorTrigger label={t("throwNow")} twiceLabel={t("throwTwice")} />
    </main>
  );
}
