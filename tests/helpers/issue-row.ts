// An issue row written straight into a database, for tests that set up rows below the storage ports (migrations, the
// counters metric alerts read).

/** An issue of `projectId` with the columns the issues table has had since 0007; `over` replaces any of them. */
export const oldIssue = <T extends Record<string, unknown>>(projectId: number, now: string, over: T = {} as T) => ({
  project_id: projectId,
  type: "error",
  title: "T",
  culprit: "",
  level: "error",
  platform: "python",
  metadata: "{}",
  status: "unresolved",
  substatus: null,
  resolution: null,
  snooze: null,
  first_seen: now,
  last_seen: now,
  times_seen: 3,
  first_release: null,
  assignee_id: null,
  ...over,
});
