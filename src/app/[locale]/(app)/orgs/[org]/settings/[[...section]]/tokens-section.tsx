// Organization auth tokens (for CI and sentry-cli): make one by name (shown once), see them, revoke them.
import { getTranslations } from "next-intl/server";
import { allowed, type OrgAccess } from "@/core/access";
import type { CoreContext } from "@/core/context";
import { listOrgTokens } from "@/core/org-tokens";
import type { OrgToken } from "@/storage/org-token-ports";
import { createOrgTokenAction, revokeOrgTokenAction } from "@/web/actions/org-tokens.action";
import { ActionForm, Field, SubmitButton } from "@/web/components/action-form";
import { TableHead } from "@/web/components/table-head";
import { formatDate } from "@/web/format";

export async function TokensSection({ core, access, locale }: { core: CoreContext; access: OrgAccess; locale: string }) {
  const t = await getTranslations("orgTokens");
  if (!allowed(access, "org:tokens")) return <p className="muted">{t("notAllowed")}</p>;
  const tokens = await listOrgTokens(core, access.org.slug);
  return (
    <>
      <p className="muted">{t("hint")}</p>
      <section className="card">
        <h2>{t("createTitle")}</h2>
        <ActionForm
          action={createOrgTokenAction.bind(null, locale, access.org.slug)}
          successMessage={t("created")}
          testId="create-org-token-form"
          resetOnSuccess
        >
          <Field name="name" label={t("name")} required />
          <SubmitButton>{t("create")}</SubmitButton>
        </ActionForm>
      </section>
      {tokens.length === 0 ? (
        <p className="muted">{t("empty")}</p>
      ) : (
        <div className="table-scroll">
          <table className="table" data-testid="org-token-table">
            <caption className="visually-hidden">{t("listCaption")}</caption>
            <TableHead columns={[t("name"), t("token"), t("createdBy"), t("createdAt"), t("lastUsed")]} actions={t("actions")} />
            <tbody>
              {tokens.map((token) => (
                <TokenRow
                  key={token.id}
                  token={token}
                  locale={locale}
                  org={access.org.slug}
                  labels={{ never: t("never"), revoke: t("revoke"), revokeLabel: t("revokeLabel", { name: token.name }) }}
                />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}

type RowProps = { token: OrgToken; locale: string; org: string; labels: { never: string; revoke: string; revokeLabel: string } };

function TokenRow({ token, locale, org, labels }: RowProps) {
  return (
    <tr data-testid={`org-token-${token.id}`}>
      <td>
        <strong>{token.name}</strong>
      </td>
      <td>
        <code>sntrys_…{token.tokenSuffix}</code>
      </td>
      <td>{token.createdBy ? token.createdBy.name || token.createdBy.email : "—"}</td>
      <td>{formatDate(locale, token.createdAt)}</td>
      <td>{token.lastUsedAt ? formatDate(locale, token.lastUsedAt) : labels.never}</td>
      <td className="actions">
        <ActionForm action={revokeOrgTokenAction.bind(null, locale, org, token.id)} className="inline-form" testId={`revoke-org-token-${token.id}`}>
          <SubmitButton variant="danger">
            <span aria-hidden="true">{labels.revoke}</span>
            <span className="visually-hidden">{labels.revokeLabel}</span>
          </SubmitButton>
        </ActionForm>
      </td>
    </tr>
  );
}
