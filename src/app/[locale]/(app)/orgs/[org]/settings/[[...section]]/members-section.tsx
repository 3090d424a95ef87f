import { getTranslations } from "next-intl/server";
import type { OrgAccess } from "@/core/access";
import type { UserContext } from "@/core/context";
import { listMembers } from "@/core/members";
import { can } from "@/core/permissions";
import { ROLES } from "@/core/roles";
import { removeMemberAction, updateMemberRoleAction } from "@/web/actions/members.action";
import { ActionForm, SubmitButton } from "@/web/components/action-form";
import { InvitationsCard } from "./invitations-card";

export async function MembersSection({ core, access, locale }: { core: UserContext; access: OrgAccess; locale: string }) {
  const t = await getTranslations("orgSettings.members");
  const tr = await getTranslations("roles");
  const members = await listMembers(core, access.org.slug);
  const canManage = can(access.role, "member:update");
  return (
    <>
      <table className="table" data-testid="member-table">
        <thead>
          <tr>
            <th scope="col">{t("email")}</th>
            <th scope="col">{t("role")}</th>
            <th scope="col">
              <span className="visually-hidden">{t("actions")}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {members.map((m) => (
            <tr key={m.id}>
              <td>
                {m.email}
                {m.userId === core.actor.user.id ? <span className="badge">{t("you")}</span> : null}
              </td>
              <td>
                {canManage ? (
                  <ActionForm action={updateMemberRoleAction.bind(null, locale, access.org.slug, m.id)} className="inline-form">
                    <label className="visually-hidden" htmlFor={`role-${m.id}`}>
                      {t("role")}
                    </label>
                    <select id={`role-${m.id}`} name="role" defaultValue={m.role}>
                      {ROLES.map((r) => (
                        <option key={r} value={r}>
                          {tr(r)}
                        </option>
                      ))}
                    </select>
                    <SubmitButton variant="secondary">{t("changeRole")}</SubmitButton>
                  </ActionForm>
                ) : (
                  tr(m.role)
                )}
              </td>
              <td>
                {can(access.role, "member:remove") || m.userId === core.actor.user.id ? (
                  <ActionForm action={removeMemberAction.bind(null, locale, access.org.slug, m.id)} className="inline-form">
                    <SubmitButton variant="danger">{m.userId === core.actor.user.id ? t("leave") : t("remove")}</SubmitButton>
                  </ActionForm>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {can(access.role, "member:add") ? <InvitationsCard access={access} locale={locale} core={core} /> : null}
    </>
  );
}
