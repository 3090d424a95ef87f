// The digest's release-health writes, inside its batch transaction (storage/digest-ports.ts DigestTx): a state row per
// individual session (sid) so that its updates are counted once, session counts per release, environment and hour, and
// the distinct users (did) of each release and environment.

export type SessionStatus = "ok" | "exited" | "crashed" | "abnormal";

/** What is known of one individual session; `release`, `environment` and `hour` are those it was first seen with. */
export type SessionState = {
  sessionId: string;
  release: string;
  environment: string;
  hour: string;
  distinctId: string | null;
  errored: boolean;
  status: SessionStatus;
};

export type SessionCountIncrement = {
  projectId: number;
  release: string;
  environment: string;
  hour: string;
  started: number;
  errored: number;
  crashed: number;
  abnormal: number;
};
export type SessionUserSighting = { projectId: number; release: string; environment: string; distinctId: string; crashed: boolean; seen: string };

export interface SessionTx {
  /**
   * Makes concurrent digests take turns on these projects' sessions until the transaction ends, so that two never
   * both read a session's state before either writes it: PostgreSQL's advisory locks, in ascending project order so two
   * digests cannot deadlock. SQLite lets one transaction write at a time already.
   */
  lockSessionStates(projectIds: number[]): Promise<void>;
  /** The stored states of these sessions of the project, by session id. */
  sessionStates(projectId: number, sessionIds: string[]): Promise<Map<string, SessionState>>;
  /** Inserts or replaces session states. */
  saveSessionStates(projectId: number, states: SessionState[]): Promise<void>;
  /** Forgets states of sessions started before `hour` (their updates are refused by then). */
  pruneSessionStates(beforeHour: string): Promise<void>;
  countSessions(rows: SessionCountIncrement[]): Promise<void>;
  /** Adds users; a user once crashed in a release and environment stays crashed. */
  sightSessionUsers(rows: SessionUserSighting[]): Promise<void>;
  /** Creates the releases sessions name (and their per-project rows) if they do not exist. */
  ensureReleases(rows: { projectId: number; version: string }[]): Promise<void>;
}
