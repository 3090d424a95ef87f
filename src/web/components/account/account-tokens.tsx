// The account page's "API tokens": the person's tokens with their scopes ("Full access" for tokens made before tokens
// had scopes), expiry and last use; creating one with Sentry's scopes and an optional expiry (shown once), revoking.
import { getTranslations } from "next-intl/server";
import type { CoreContext } from "@/core/context";
import { TOKEN_SCOPES } from "@/core/token-scopes";
import { listTokens, tokenExpired } from "@/core/tokens";
import { createTokenAction, deleteTokenAction } from "@/web/actions/tokens.action";
import { formatDate } from "@/web/format";
import { ActionForm, CheckboxGroup, Field, SubmitButton } from "../action-form";

export async function AccountTokens({ locale, core }: { locale: string; core: CoreContext }) {
  const t = await getTranslations("account");
  const tokens = await listTokens(core);
  return (
    <>
      <p className="muted">{t("tokensHint")}</p>
      {tokens.length > 0 ? (
        <table className="table" data-testid="token-table">
          <thead>
            <tr>
              <th scope="col">{t("tokenName")}</th>
              <th scope="col">{t("scopes")}</th>
              <th scope="col">{t("expires")}</th>
              <th scope="col">{t("lastUsedHead")}</th>
              <th scope="col">
                <span className="visually-hidden">{t("actions")}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {tokens.map((tok) => (
              <tr key={tok.id}>
                <td>
                  <strong>{tok.name}</strong> <span className="muted">…{tok.tokenSuffix}</span>
                </td>
                <td data-testid="token-scopes">{tok.scopes === null ? <em>{t("fullAccess")}</em> : tok.scopes.map((s) => <code key={s}>{s} </code>)}</td>
                <td className="muted">
                  {tok.expiresAt === null
                    ? t("noExpiry")
                    : tokenExpired(tok)
                      ? t("expired", { date: formatDate(locale, tok.expiresAt) })
                      : formatDate(locale, tok.expiresAt)}
                </td>
                <td className="muted">{tok.lastUsedAt ? t("lastUsed", { date: formatDate(locale, tok.lastUsedAt) }) : t("neverUsed")}</td>
                <td className="actions">
                  <ActionForm action={deleteTokenAction.bind(null, locale, tok.id)} className="inline-form">
                    <SubmitButton variant="danger">{t("revoke")}</SubmitButton>
                  </ActionForm>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      <section className="card" aria-labelledby="create-token">
        <h2 id="create-token">{t("createToken")}</h2>
        <ActionForm action={createTokenAction.bind(null, locale)} successMessage={t("tokenCreated")} testId="create-token-form">
          <Field name="name" label={t("tokenName")} required />
          <CheckboxGroup name="scopes" legend={t("scopesLegend")} options={TOKEN_SCOPES.map((s) => ({ value: s, label: s }))} testId="token-scopes-choice" />
          <Field name="expiresAt" label={t("expiresOn")} type="date" />
          <SubmitButton>{t("create")}</SubmitButton>
        </ActionForm>
      </section>
    </>
  );
}
