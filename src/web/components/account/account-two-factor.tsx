// Account → Two-factor authentication: whether it is on, enrolment (two-factor-setup.tsx) or turning it off with
// the password; and, when an organization requires it, which one sent the person here.
import { getTranslations } from "next-intl/server";
import type { UserContext } from "../../../core/context";
import { confirmTwoFactorAction, disableTwoFactorAction, startTwoFactorAction } from "../../actions/two-factor.action";
import { ActionForm, Field, SubmitButton } from "../action-form";
import { TwoFactorSetup } from "./two-factor-setup";

export async function AccountTwoFactor({ locale, core, requiredBy, done }: { locale: string; core: UserContext; requiredBy?: string; done?: string }) {
  const t = await getTranslations("account.twoFactor");
  const on = await core.store.userHasTwoFactor(core.actor.user.id);
  return (
    <section className="card" data-testid="two-factor-section">
      {requiredBy && !on ? (
        <p className="form-notice" role="status" data-testid="two-factor-required">
          {t("required", { org: requiredBy })}
        </p>
      ) : null}
      {done === "enabled" && on ? (
        <p className="form-ok" role="status">
          {t("enabled")}
        </p>
      ) : null}
      {done === "disabled" && !on ? (
        <p className="form-ok" role="status">
          {t("disabled")}
        </p>
      ) : null}
      <p data-testid="two-factor-status">{on ? t("on") : t("off")}</p>
      {on ? (
        <ActionForm action={disableTwoFactorAction.bind(null, locale)} testId="two-factor-disable-form">
          <p>{t("disableHint")}</p>
          <Field name="password" label={t("password")} type="password" autoComplete="current-password" required />
          <SubmitButton variant="danger">{t("disable")}</SubmitButton>
        </ActionForm>
      ) : (
        <>
          <p>{t("intro")}</p>
          <TwoFactorSetup
            start={startTwoFactorAction.bind(null, locale)}
            confirm={confirmTwoFactorAction.bind(null, locale)}
            labels={{
              password: t("password"),
              start: t("start"),
              scan: t("scan"),
              secret: t("secretLabel"),
              codesTitle: t("codesTitle"),
              codesHint: t("codesHint"),
              code: t("code"),
              confirm: t("confirm"),
              qrAlt: t("qrAlt"),
            }}
          />
        </>
      )}
    </section>
  );
}
