"use server";
// Two-factor sign-in (issue 20): enrolment, confirmation and turning it off from the account page, the second step
// of a sign-in, and an organization's "require two-factor". better-auth's endpoints are called through the
// auth bridge (its rate limiter and checks apply as for HTTP clients); auth/two-factor.ts records each change.
import { redirect } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { AppError } from "../../core/errors";
import { setRequireTwoFactor } from "../../core/two-factor";
import { callAuth } from "../auth-bridge";
import { qrCodeSvg } from "../qr-code";
import { requireCore } from "../session";
import { act, validationTranslator } from "./act";
import { type ActionState, formObject, runAction, isForm, NOT_A_FORM } from "./result";
import { knownLocale, safeNext } from "./locale";

const text = (v: string | undefined, max: number) => (v ?? "").slice(0, max);

/** Step 1 of enrolment: with the password, a new secret (as a QR code and as text) and the recovery codes, shown once. */
export async function startTwoFactorAction(rawLocale: string, _prev: ActionState, form: FormData): Promise<ActionState> {
  const locale = knownLocale(rawLocale);
  if (!isForm(form)) return NOT_A_FORM;
  await requireCore(locale, `/${locale}/account/two-factor`);
  const t = await getTranslations({ locale, namespace: "account.twoFactor" });
  return runAction(async () => {
    const res = await callAuth("/two-factor/enable", { password: text(formObject(form).password, 1024) });
    if (res.status === 429) throw new AppError("rate_limited", t("tooMany"));
    if (res.status !== 200 || typeof res.body?.totpURI !== "string") throw new AppError("bad_request", t("wrongPassword"), { password: [t("wrongPassword")] });
    const uri = res.body.totpURI;
    const codes = Array.isArray(res.body.backupCodes) ? res.body.backupCodes.filter((c): c is string => typeof c === "string") : [];
    return { status: "ok", data: { qr: await qrCodeSvg(uri), secret: new URL(uri).searchParams.get("secret") ?? "", codes: codes.join("\n") } };
  });
}

/** Step 2: the first code from the app turns two-factor on. */
export async function confirmTwoFactorAction(rawLocale: string, _prev: ActionState, form: FormData): Promise<ActionState> {
  const locale = knownLocale(rawLocale);
  if (!isForm(form)) return NOT_A_FORM;
  await requireCore(locale, `/${locale}/account/two-factor`);
  const t = await getTranslations({ locale, namespace: "account.twoFactor" });
  const result = await runAction(async () => {
    const res = await callAuth("/two-factor/verify-totp", { code: text(formObject(form).code, 16).replace(/\s/g, "") });
    if (res.status === 429) throw new AppError("rate_limited", t("tooMany"));
    if (res.status !== 200)
      throw new AppError("bad_request", t(res.body?.code === "CODE_ALREADY_USED" ? "usedCode" : "wrongCode"), {
        code: [t(res.body?.code === "CODE_ALREADY_USED" ? "usedCode" : "wrongCode")],
      });
  });
  if (result.status === "ok") redirect(`/${locale}/account/two-factor?done=enabled`);
  return result;
}

/** Turning two-factor off needs the password. */
export async function disableTwoFactorAction(rawLocale: string, _prev: ActionState, form: FormData): Promise<ActionState> {
  const locale = knownLocale(rawLocale);
  if (!isForm(form)) return NOT_A_FORM;
  await requireCore(locale, `/${locale}/account/two-factor`);
  const t = await getTranslations({ locale, namespace: "account.twoFactor" });
  const result = await runAction(async () => {
    const res = await callAuth("/two-factor/disable", { password: text(formObject(form).password, 1024) });
    if (res.status === 429) throw new AppError("rate_limited", t("tooMany"));
    if (res.status !== 200) throw new AppError("bad_request", t("wrongPassword"), { password: [t("wrongPassword")] });
  });
  if (result.status === "ok") redirect(`/${locale}/account/two-factor?done=disabled`);
  return result;
}

/** The second step of a sign-in: a code from the app, or (`recovery`) one of the recovery codes. */
export async function verifySignInCodeAction(rawLocale: string, kind: "totp" | "recovery", _prev: ActionState, form: FormData): Promise<ActionState> {
  const locale = knownLocale(rawLocale);
  if (!isForm(form)) return NOT_A_FORM;
  const t = await getTranslations({ locale, namespace: "signIn.twoFactor" });
  const values = formObject(form);
  const code = text(values.code, 64).trim();
  // In runAction for a full disk: an inline message, not the error page.
  return runAction(
    async () => {
      const res =
        kind === "totp"
          ? await callAuth("/two-factor/verify-totp", { code: code.replace(/\s/g, "") })
          : await callAuth("/two-factor/verify-backup-code", { code });
      if (res.status === 429) return { status: "error", message: t("tooMany") };
      if (res.body?.code === "INVALID_TWO_FACTOR_COOKIE" || res.body?.code === "TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE")
        return { status: "error", message: t("expired") };
      if (res.status !== 200)
        return {
          status: "error",
          message: t(res.body?.code === "CODE_ALREADY_USED" ? "used" : "invalid"),
          fields: { code: [t(res.body?.code === "CODE_ALREADY_USED" ? "used" : "invalid")] },
        };
      redirect(safeNext(locale, values.next));
    },
    await validationTranslator(locale),
  );
}

/** Organization settings: "require two-factor" (owners only; the core checks and records it). */
export async function setRequireTwoFactorAction(rawLocale: string, orgSlug: string, _prev: ActionState, form: FormData): Promise<ActionState> {
  const locale = knownLocale(rawLocale);
  if (!isForm(form)) return NOT_A_FORM;
  return act(locale, async (core) => {
    await setRequireTwoFactor(core, orgSlug, { requireTwoFactor: form.get("requireTwoFactor") === "on" });
  });
}
