// Throws inside the dashboard: its error boundary (src/app/[locale]/(app)/error.tsx) shows a message, the digest
// and a retry, inside the normal page shell.
import { notFound } from "next/navigation";
import { requireUser } from "@/web/session";

export const dynamic = "force-dynamic";

export default async function RouteErrorDiagnostic({ params: { locale } }: { params: { locale: string } }) {
  const user = await requireUser(locale, `/${locale}/diagnostics/route-error`);
  if (!user.isSuperuser) notFound();
  throw new Error("Faultline diagnostics: deliberate error inside the dashboard");
}
