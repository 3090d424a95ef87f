"use server";
// Mail from the web: asking for a password-reset link, setting the new password with it (both through better-auth's
// HTTP endpoints in-process, so their rate limits apply), and a superuser's test e-mail.
import { redirect } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { z } from "zod";
import { resetPasswordPath } from "../../auth/create-auth";
import { AppError } from "../../core/errors";
import { sendTestMail } from "../../core/instance-mail";
import { emailSchema, parseInput, passwordSchema } from "../../core/schemas";
import { getServices } from "../../runtime/services";
import { callAuth } from "../auth-bridge";
import { act, validationTranslator } from "./act";
import { type ActionState, formObject, runAction, isForm, NOT_A_FORM } from "./result";
import { knownLocale } from "./locale";

/** The same answer whether the address has an account or not. */
export async function requestPasswordResetAction(locale: string, _prev: ActionState, form: FormData): Promise<ActionState> {
  if (!isForm(form)) return NOT_A_FORM;
  const l = knownLocale(locale);
  const t = await getTranslations({ locale: l, namespace: "forgotPassword" });
  return runAction(
    async () => {
      const { email } = parseInput(z.object({ email: emailSchema }), formObject(form));
      const res = await callAuth("/request-password-reset", { email, redirectTo: resetPasswordPath(getServices().basePath, l) });
      if (res.status === 429) throw new AppError("rate_limited", t("tooMany"));
      return { status: "ok", message: t("sent") };
    },
    await validationTranslator(l),
  );
}

/** A reset token as better-auth makes them (24 letters and digits); anything else is simply an invalid link. */
const TOKEN = /^[A-Za-z0-9_-]{1,128}$/;

export async function resetPasswordAction(locale: string, _prev: ActionState, form: FormData): Promise<ActionState> {
  if (!isForm(form)) return NOT_A_FORM;
  const l = knownLocale(locale);
  const t = await getTranslations({ locale: l, namespace: "resetPassword" });
  const schema = z
    .object({ token: z.string().regex(TOKEN), password: passwordSchema, confirm: z.string() })
    .refine((v) => v.password === v.confirm, { path: ["confirm"], message: t("mismatch") });
  const state = await runAction(
    async () => {
      const values = formObject(form);
      if (typeof values.token !== "string" || !TOKEN.test(values.token)) throw new AppError("bad_request", t("invalidLink"));
      const { token, password } = parseInput(schema, values);
      const res = await callAuth("/reset-password", { token, newPassword: password });
      if (res.status === 429) throw new AppError("rate_limited", t("tooMany"));
      if (res.status !== 200) throw new AppError("bad_request", t("invalidLink"));
    },
    await validationTranslator(l),
  );
  if (state.status === "ok") redirect(`/${l}/sign-in?reset=done`);
  return state;
}

export async function sendTestMailAction(locale: string, _prev: ActionState, form: FormData): Promise<ActionState> {
  if (!isForm(form)) return NOT_A_FORM;
  const l = knownLocale(locale);
  const t = await getTranslations({ locale: l, namespace: "instanceMail" });
  let result: ActionState = { status: "ok" };
  const state = await act(l, async (core) => {
    const { mailer, config, basePath } = getServices();
    const outcome = await sendTestMail(core, mailer, { publicUrl: config.publicUrl, basePath }, l, formObject(form));
    if (outcome.status === "sent") result = { status: "ok", message: t("sent", { response: outcome.response }) };
    else if (outcome.status === "failed") throw new AppError("bad_request", t("failed", { error: outcome.error }));
    else throw new AppError("bad_request", t("unconfigured"));
  });
  return state.status === "ok" ? result : state;
}
