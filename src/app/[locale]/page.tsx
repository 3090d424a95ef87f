// "/{locale}": first run goes to setup, a visitor to sign-in, a user to their organizations.
import { redirect } from "next/navigation";
import { getServices } from "@/runtime/services";
import { getCurrentUser } from "@/web/session";

export const dynamic = "force-dynamic";

export default async function Home({ params: { locale } }: { params: { locale: string } }) {
  if ((await getServices().store.countUsers()) === 0) redirect(`/${locale}/setup`);
  const user = await getCurrentUser();
  redirect(user ? `/${locale}/orgs` : `/${locale}/sign-in`);
}
