import { getTranslations } from "next-intl/server";
import type { OrgAccess } from "@/core/access";
import type { CoreContext } from "@/core/context";
import { can } from "@/core/permissions";
import { listTeams } from "@/core/teams";
import { createTeamAction, deleteTeamAction, setTeamMembershipAction } from "@/web/actions/teams.action";
import { ActionForm, Field, SubmitButton } from "@/web/components/action-form";

export async function TeamsSection({ core, access, locale }: { core: CoreContext; access: OrgAccess; locale: string }) {
  const t = await getTranslations("orgSettings.teams");
  const { items } = await listTeams(core, access.org.slug, { limit: 100 });
  const mine = access.memberId !== null ? await core.store.listTeamIdsOfMember(access.memberId) : [];
  return (
    <>
      {items.length === 0 ? <p className="muted">{t("empty")}</p> : null}
      <table className="table" data-testid="team-table">
        <tbody>
          {items.map((team) => (
            <tr key={team.id}>
              <td>
                <strong>#{team.slug}</strong> <span className="muted">{t("memberCount", { count: team.memberCount })}</span>
              </td>
              <td className="actions">
                {can(access.role, "team:join") && access.memberId !== null ? (
                  <ActionForm action={setTeamMembershipAction.bind(null, locale, access.org.slug, team.slug, !mine.includes(team.id))} className="inline-form">
                    <SubmitButton variant="secondary">{mine.includes(team.id) ? t("leave") : t("join")}</SubmitButton>
                  </ActionForm>
                ) : null}
                {can(access.role, "team:delete") ? (
                  <ActionForm action={deleteTeamAction.bind(null, locale, access.org.slug, team.slug)} className="inline-form">
                    <SubmitButton variant="danger">{t("delete")}</SubmitButton>
                  </ActionForm>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {can(access.role, "team:create") ? (
        <section className="card">
          <h2>{t("createTitle")}</h2>
          <ActionForm action={createTeamAction.bind(null, locale, access.org.slug)} testId="create-team-form">
            <Field name="slug" label={t("slug")} required />
            <SubmitButton>{t("create")}</SubmitButton>
          </ActionForm>
        </section>
      ) : null}
    </>
  );
}
