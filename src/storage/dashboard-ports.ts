// Reads the dashboard's release pages and environment filter need, and invitations to an organization.
import type { Role } from "../core/roles";

/** Session counts of one hour of a release (summed over the projects and environments asked for). */
export type ReleaseSessionBucket = { hour: string; sessions: number; erroredAll: number; crashed: number; abnormal: number };
/** An issue first seen in a release. */
export type ReleaseIssue = {
  id: number;
  projectId: number;
  shortId: number;
  title: string;
  culprit: string;
  level: string;
  timesSeen: number;
  firstSeen: string;
  lastSeen: string;
};

export interface ReleaseDetailStore {
  /** Hourly session counts of a release in these projects from `sinceHour` (inclusive); hours without sessions are absent. */
  releaseSessionSeries(projectIds: number[], version: string, opts: { environments: string[] | null; sinceHour: string }): Promise<ReleaseSessionBucket[]>;
  /** Stored events of a release in these projects, in the environments asked for (all when null). */
  releaseEventCount(projectIds: number[], version: string, environments: string[] | null): Promise<number>;
  /** Issues whose first event came with this release, most recently seen first. */
  releaseNewIssues(projectIds: number[], version: string, limit: number): Promise<ReleaseIssue[]>;
  /** The environments events or sessions named, in the organization or in some of its projects, by name. */
  listEnvironments(organizationId: number, projectIds: number[] | null): Promise<string[]>;
}

export type Invitation = {
  id: number;
  organizationId: number;
  /** The address invited, lowercase; only an account with it joins (null: a link made before addresses, ended). */
  email: string | null;
  role: Role;
  createdBy: string | null;
  createdAt: string;
  expiresAt: string;
  acceptedBy: string | null;
  acceptedAt: string | null;
};

export interface InvitationStore {
  /**
   * Invites an address, in one transaction: "already_member" when an account with that address is a member; otherwise
   * any open invitation of the organization for the same address is replaced (its link ends) by this one.
   */
  createInvitation(input: {
    organizationId: number;
    email: string;
    role: Role;
    tokenHash: string;
    createdBy: string;
    createdAt: string;
    expiresAt: string;
  }): Promise<Invitation | "already_member">;
  /** Invitations not accepted yet, newest first (expired ones included, so an admin sees and revokes them). */
  listPendingInvitations(organizationId: number): Promise<Invitation[]>;
  /** The invitation a link's secret hashes to, accepted or not. */
  getInvitationByHash(tokenHash: string): Promise<Invitation | null>;
  deleteInvitation(organizationId: number, invitationId: number): Promise<boolean>;
  /**
   * Marks an open, unexpired invitation accepted by the user and makes them a member, in one transaction: of two
   * people using one link at once, one joins. Only the account with the invited address joins ("other_address" for
   * any other). "already_member" and "other_address" leave the invitation open.
   */
  acceptInvitation(
    tokenHash: string,
    userId: string,
    now: string,
  ): Promise<{ organizationId: number; memberId: number } | "invalid" | "already_member" | "other_address">;
}
