// Invitations on the members page: invite an e-mail address with a role (its link is mailed and shown once), see the open ones,
// revoke them. The only way someone joins an organization (core/invitations.ts).
import { getTranslations } from "next-intl/server";
import type { OrgAccess } from "@/core/access";
import type { CoreContext } from "@/core/context";
import type { Invitation } from "@/storage/dashboard-ports";
import { listInvitations } from "@/core/invitations";
import { ROLES } from "@/core/roles";
import { createInvitationAction, revokeInvitationAction } from "@/web/actions/invitations.action";
import { ActionForm, Field, SubmitButton } from "@/web/components/action-form";
import { TableHead } from "@/web/components/table-head";
import { formatDate } from "@/web/format";
/** Invitations of an address to a role: made here, the link mailed (when mail is set up) and shown once to pass on, revocable. */
export async function InvitationsCard({ core, access, locale }: { core: CoreContext; access: OrgAccess; locale: string }) {
  const t = await getTranslations("invitations");
  const tr = await getTranslations("roles");
  const pending = await listInvitations(core, access.org.slug);
  const now = Date.now();
  return (
    <section className="card" data-testid="invitations">
      <h2>{t("title")}</h2>
      <p className="muted">{t("hint")}</p>
      <ActionForm action={createInvitationAction.bind(null, locale, access.org.slug)} testId="create-invite-form" resetOnSuccess>
        <Field name="email" label={t("email")} type="email" autoComplete="off" required />
        <Field
          name="role"
          label={t("role")}
          defaultValue="member"
          options={ROLES.filter((r) => access.role === "owner" || access.role === null || r !== "owner").map((r) => ({ value: r, label: tr(r) }))}
        />
        <SubmitButton>{t("create")}</SubmitButton>
      </ActionForm>
      {pending.length > 0 ? (
        <div className="table-scroll">
          <table className="table" data-testid="invitation-table">
            <caption className="visually-hidden">{t("pending")}</caption>
            <TableHead columns={[t("email"), t("role"), t("createdAt"), t("expires")]} actions={t("actions")} />
            <tbody>
              {pending.map((i) => (
                <InvitationRow
                  key={i.id}
                  invitation={i}
                  role={tr(i.role)}
                  locale={locale}
                  org={access.org.slug}
                  expired={Date.parse(i.expiresAt) <= now}
                  labels={{ expired: t("expired"), revoke: t("revoke") }}
                />
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </section>
  );
}

type RowProps = { invitation: Invitation; role: string; locale: string; org: string; expired: boolean; labels: { expired: string; revoke: string } };

function InvitationRow({ invitation: i, role, locale, org, expired, labels }: RowProps) {
  const revoke = revokeInvitationAction.bind(null, locale, org, i.id);
  return (
    <tr>
      <td>{i.email}</td>
      <td>{role}</td>
      <td>{formatDate(locale, i.createdAt)}</td>
      <td>{expired ? <span className="badge warn">{labels.expired}</span> : formatDate(locale, i.expiresAt)}</td>
      <td className="actions">
        <ActionForm action={revoke} className="inline-form" testId={`revoke-invite-${i.id}`}>
          <SubmitButton variant="danger">{labels.revoke}</SubmitButton>
        </ActionForm>
      </td>
    </tr>
  );
}
