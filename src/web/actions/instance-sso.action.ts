"use server";
// Instance settings → Single sign-on (superusers; core/instance-sso.ts checks and records it). After a change, this
// node rebuilds better-auth with the new provider at once; the others within SSO_LIMITS.settingsRecheckMs.
import { revalidatePath } from "next/cache";
import { encryptClientSecret } from "../../auth/sso-settings";
import { saveInstanceSso } from "../../core/instance-sso";
import { currentServices, getServices } from "../../runtime/services";
import { act } from "./act";
import { type ActionState, formObject, isForm, NOT_A_FORM } from "./result";

export async function saveInstanceSsoAction(locale: string, _prev: ActionState, form: FormData): Promise<ActionState> {
  if (!isForm(form)) return NOT_A_FORM;
  const v = formObject(form);
  const { config } = getServices();
  return act(locale, async (core) => {
    await saveInstanceSso(
      core,
      { issuer: v.issuer ?? "", clientId: v.clientId ?? "", clientSecret: v.clientSecret, name: v.name ?? "" },
      config.oidc !== null,
      (secret) => encryptClientSecret(config.secretKey, secret),
    );
    await currentServices(true);
    revalidatePath(`/${locale}/instance/sso`);
  });
}

export async function removeInstanceSsoAction(locale: string, _prev: ActionState, _form: FormData): Promise<ActionState> {
  const { config } = getServices();
  return act(locale, async (core) => {
    await saveInstanceSso(core, { remove: true }, config.oidc !== null, (secret) => encryptClientSecret(config.secretKey, secret));
    await currentServices(true);
    revalidatePath(`/${locale}/instance/sso`);
  });
}
