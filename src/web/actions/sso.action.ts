"use server";
// Single sign-on (issue 20): starting a sign-in with the provider, linking it to a password account after its
// password was entered, and an organization's SSO settings. better-auth's endpoints are called through the auth
// bridge; the protocol and its checks are auth/sso.ts.
import { redirect } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { AppError } from "../../core/errors";
import { setOrgSsoSettings } from "../../core/sso";
import { currentServices } from "../../runtime/services";
import { callAuth } from "../auth-bridge";
import { requireCore } from "../session";
import { act } from "./act";
import { type ActionState, formObject, runAction, isForm, NOT_A_FORM } from "./result";
import { knownLocale, safeNext } from "./locale";

/** The provider's authorization URL from better-auth's answer, or an error. */
async function providerUrl(endpoint: "/sign-in/social" | "/link-social", body: Record<string, unknown>, locale: string): Promise<string> {
  const t = await getTranslations({ locale, namespace: "signIn.sso" });
  const res = await callAuth(endpoint, body);
  if (res.status === 429) throw new AppError("rate_limited", t("tooMany"));
  const url = res.body?.url;
  if (res.status !== 200 || typeof url !== "string") throw new AppError("bad_request", t("unavailable"));
  return url;
}

/** "Sign in with <name>": to the provider's page, back to better-auth's callback, then to `next`. */
export async function ssoSignInAction(rawLocale: string, _prev: ActionState, form: FormData): Promise<ActionState> {
  const locale = knownLocale(rawLocale);
  if (!isForm(form)) return NOT_A_FORM;
  const { basePath, sso } = await currentServices();
  if (!sso) return { status: "error", message: (await getTranslations({ locale, namespace: "signIn.sso" }))("unavailable") };
  const next = safeNext(locale, formObject(form).next, `/${locale}/orgs`);
  let url = "";
  const result = await runAction(async () => {
    url = await providerUrl(
      "/sign-in/social",
      { provider: "sso", callbackURL: `${basePath}${next}`, errorCallbackURL: `${basePath}/${locale}/sign-in/sso`, disableRedirect: true },
      locale,
    );
  });
  if (result.status === "ok") redirect(url);
  return result;
}

/** Linking: the signed-in person (who just entered their password) goes to the provider to confirm it is them. */
export async function ssoLinkAction(rawLocale: string, _prev: ActionState, _form: FormData): Promise<ActionState> {
  const locale = knownLocale(rawLocale);
  await requireCore(locale, `/${locale}/sign-in/sso/link`);
  const { basePath } = await currentServices();
  let url = "";
  const result = await runAction(async () => {
    url = await providerUrl(
      "/link-social",
      { provider: "sso", callbackURL: `${basePath}/${locale}/account?sso=linked`, errorCallbackURL: `${basePath}/${locale}/sign-in/sso` },
      locale,
    );
  });
  if (result.status === "ok") redirect(url);
  return result;
}

/** An organization's SSO settings (owners): require SSO, auto-join domains (one a line or comma-separated) and role. */
export async function orgSsoAction(rawLocale: string, orgSlug: string, _prev: ActionState, form: FormData): Promise<ActionState> {
  const locale = knownLocale(rawLocale);
  if (!isForm(form)) return NOT_A_FORM;
  const v = formObject(form);
  const domains = (v.autoJoinDomains ?? "")
    .slice(0, 10_000)
    .split(/[\s,]+/)
    .filter(Boolean);
  return act(locale, async (core) => {
    await setOrgSsoSettings(
      core,
      orgSlug,
      { requireSso: v.requireSso === "on", autoJoinDomains: domains, autoJoinRole: v.autoJoinRole ?? "member" },
      (await currentServices()).sso !== null,
    );
  });
}
