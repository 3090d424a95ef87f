"use server";
// Setup, sign in, sign out and password change.
import { redirect } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { setupFirstUser } from "../../core/accounts";
import { audit } from "../../core/audit";
import { AppError } from "../../core/errors";
import { parseInput, passwordSchema } from "../../core/schemas";
import { z } from "zod";
import { currentServices, getServices } from "../../runtime/services";
import { callAuth, dropSessionCookies } from "../auth-bridge";
import { isStorageFull, reportStorageFull } from "../../storage/storage-full";
import { requireCore } from "../session";
import { validationTranslator } from "./act";
import { type ActionState, formObject, runAction, isForm, NOT_A_FORM } from "./result";
import { knownLocale, safeNext } from "./locale";

export async function setupAction(rawLocale: string, _prev: ActionState, form: FormData): Promise<ActionState> {
  const locale = knownLocale(rawLocale);
  if (!isForm(form)) return NOT_A_FORM;
  const { accounts, store } = getServices();
  const values = formObject(form);
  const result = await runAction(
    async () => {
      const { orgSlug } = await setupFirstUser(accounts, store, values);
      const signIn = await callAuth("/sign-in/email", { email: values.email, password: values.password });
      if (signIn.status !== 200) throw new AppError("bad_request", "Account created; sign in to continue");
      return { status: "ok", data: { org: orgSlug } };
    },
    await validationTranslator(locale),
  );
  if (result.status === "ok") redirect(`/${locale}/orgs/${result.data?.org ?? ""}`);
  return result;
}

export async function signInAction(rawLocale: string, _prev: ActionState, form: FormData): Promise<ActionState> {
  const locale = knownLocale(rawLocale);
  if (!isForm(form)) return NOT_A_FORM;
  const t = await getTranslations({ locale, namespace: "signIn" });
  const values = formObject(form);
  // In runAction for a full disk (better-auth writes its rate limit first): an inline message, not the error page.
  return runAction(
    async () => {
      const res = await callAuth("/sign-in/email", { email: values.email ?? "", password: values.password ?? "" });
      if (res.status === 429) return { status: "error", message: t("tooMany") };
      if (res.status === 403 && res.body?.code === "SSO_REQUIRED")
        return { status: "error", message: t("ssoRequired", { name: (await currentServices()).sso?.name ?? "single sign-on" }) };
      if (res.status !== 200) return { status: "error", message: t("invalid") };
      // Linking single sign-on to this account (the provider's e-mail had a password account): the password was right,
      // now the person confirms the link (sign-in/sso/link), after a second step if two-factor is on.
      if (values.link === "sso") {
        const link = `/${locale}/sign-in/sso/link`;
        if (res.body?.twoFactorRedirect === true) redirect(`/${locale}/sign-in/two-factor?next=${encodeURIComponent(link)}`);
        redirect(link);
      }
      // Two-factor on: the password was right, and better-auth waits for a code (its two_factor cookie) before a session.
      if (res.body?.twoFactorRedirect === true) redirect(`/${locale}/sign-in/two-factor?next=${encodeURIComponent(safeNext(locale, values.next))}`);
      redirect(safeNext(locale, values.next));
    },
    await validationTranslator(locale),
  );
}

export async function signOutAction(rawLocale: string): Promise<void> {
  const locale = knownLocale(rawLocale);
  try {
    await callAuth("/sign-out", {});
  } catch (err) {
    if (!isStorageFull(err)) throw err;
    reportStorageFull("signOut");
    await dropSessionCookies();
  }
  redirect(`/${locale}/sign-in`);
}

const changePasswordSchema = z
  .object({ currentPassword: z.string().min(1, "Enter your current password"), newPassword: passwordSchema, confirmPassword: z.string() })
  .refine((v) => v.newPassword === v.confirmPassword, { path: ["confirmPassword"], message: "The passwords do not match" });

export async function changePasswordAction(rawLocale: string, _prev: ActionState, form: FormData): Promise<ActionState> {
  const locale = knownLocale(rawLocale);
  if (!isForm(form)) return NOT_A_FORM;
  const core = await requireCore(locale);
  const t = await getTranslations({ locale, namespace: "account" });
  return runAction(
    async () => {
      const { currentPassword, newPassword } = parseInput(changePasswordSchema, formObject(form));
      const res = await callAuth("/change-password", { currentPassword, newPassword, revokeOtherSessions: true });
      if (res.status === 429) throw new AppError("rate_limited", t("tooMany"));
      if (res.status !== 200) throw new AppError("bad_request", t("wrongPassword"), { currentPassword: [t("wrongPassword")] });
      await audit(core, {
        organizationId: null,
        event: "user.password-change",
        targetUserId: core.actor.user.id,
        note: `${core.actor.user.email} changed their password; their other sessions were signed out`,
      });
      return { status: "ok", message: t("passwordChanged") };
    },
    await validationTranslator(locale),
  );
}
