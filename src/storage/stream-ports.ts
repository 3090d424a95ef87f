// What the issue stream reads besides its page: the polling tick behind its live updates (new issues, the counts of
// the issues on screen) and the values its search suggests (releases, environments).
import type { IssueStatus } from "./digest-ports";
import type { IssueFilter } from "./issue-ports";

/** An issue's figures as the stream shows them. */
export type IssueFigures = { id: number; timesSeen: number; userCount: number; lastSeen: string; status: IssueStatus };

export interface IssueStreamStore {
  /** The highest issue id of these projects, 0 when they have none: new issues are those above it. */
  newestIssueId(projectIds: number[]): Promise<number>;
  /**
   * One poll: how many issues of these projects match the filter with an id above `afterId` (counted up to `cap`),
   * the highest such id, and the figures of the watched issues that belong to these projects.
   */
  issueStreamTick(
    projectIds: number[],
    q: { filter?: IssueFilter; afterId: number; watchIds: number[]; cap: number },
  ): Promise<{ newIssues: number; newestId: number; watched: IssueFigures[] }>;
  /** The organization's newest releases of these projects and the environments seen in them, up to `limit` each. */
  issueSearchValues(organizationId: number, projectIds: number[], limit: number): Promise<{ releases: string[]; environments: string[] }>;
}
