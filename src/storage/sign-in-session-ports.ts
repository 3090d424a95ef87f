// Sign-in sessions (issue 20, migration 0036): a person's sessions as the account page lists them, revoking them,
// and when each was last seen. The rows are better-auth's (auth/create-auth.ts); its tokens are never read here.

/** A signed-in session as the account page shows it (times ISO 8601). */
export type SessionInfo = {
  id: string;
  createdAt: string;
  /** The last request seen (written at most once per SESSION_LIMITS.lastSeenWriteSeconds); null: none since sign-in. */
  lastSeenAt: string | null;
  expiresAt: string;
  ipAddress: string | null;
  userAgent: string | null;
};

export interface SignInSessionStore {
  /** The person's sessions that have not expired by `now` (ISO 8601), the most recently seen first (the newest SESSION_LIMITS.maxListed). */
  listUserSessions(userId: string, now: string): Promise<SessionInfo[]>;
  /** Deletes the person's session `sessionId`; false if the person has no such session (someone else's included). */
  deleteUserSession(userId: string, sessionId: string): Promise<boolean>;
  /** Deletes every session of the person but `keepSessionId`; returns the ids deleted. */
  deleteOtherUserSessions(userId: string, keepSessionId: string): Promise<string[]>;
  /** Sets the session's last-seen time to `seenAt` unless it was already seen at or after `notBefore` (no write then). */
  touchSession(sessionId: string, seenAt: string, notBefore: string): Promise<void>;
}
