// Builds API views that need more than one row (a project with its team and membership flags).
import type { OrgAccess } from "../../core/access";
import type { CoreContext } from "../../core/context";
import type { Project } from "../../storage/ports";
import { serializeProject } from "./serializers";

export async function projectViews(core: CoreContext, projects: Project[], accessByOrg: Map<number, OrgAccess>) {
  const out = [];
  const memberTeams = new Map<number, number[]>();
  for (const p of projects) {
    const access = accessByOrg.get(p.organizationId);
    if (!access) continue;
    const team = p.teamId ? await core.store.getTeamById(p.organizationId, p.teamId) : null;
    let mine = access.memberId !== null ? memberTeams.get(access.memberId) : [];
    if (mine === undefined && access.memberId !== null) {
      mine = await core.store.listTeamIdsOfMember(access.memberId);
      memberTeams.set(access.memberId, mine);
    }
    out.push(serializeProject(p, access.org, team, access.memberId !== null && (team === null || (mine ?? []).includes(team.id))));
  }
  return out;
}
