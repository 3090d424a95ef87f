// Throws while rendering on the server, with no boundary in between: the framework's server-side fallback,
// with the digest that matches the server log line, is what the superuser sees.
import { notFound } from "next/navigation";
import { requireUser } from "@/web/session";

export const dynamic = "force-dynamic";

export default async function ServerErrorDiagnostic({ params: { locale } }: { params: { locale: string } }) {
  const user = await requireUser(locale, `/${locale}/diagnostics/server-error`);
  if (!user.isSuperuser) notFound();
  throw new Error("Faultline diagnostics: deliberate server-side error");
}
