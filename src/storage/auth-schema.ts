// better-auth's tables on Faultline's database (users, sessions, linked accounts, verifications, rate limits), with
// the columns Faultline adds (a superuser flag, two-factor, a session's last seen). storage/schema.ts gathers them.
import type { Generated } from "kysely";

type Bool = boolean | number;
type Timestamp = Date | string;

export type UsersTable = {
  id: string;
  name: string;
  email: string;
  email_verified: Bool;
  image: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  is_superuser: Bool;
  /** better-auth's twoFactorEnabled (migration 0034). */
  two_factor_enabled: Generated<Bool>;
};

export type SessionsTable = {
  id: string;
  expires_at: Timestamp;
  token: string;
  created_at: Timestamp;
  updated_at: Timestamp;
  ip_address: string | null;
  user_agent: string | null;
  user_id: string;
  /** ISO 8601; written at most once per SESSION_LIMITS.lastSeenWriteSeconds (migration 0036). */
  last_seen_at: string | null;
};

export type AccountsTable = {
  id: string;
  account_id: string;
  provider_id: string;
  user_id: string;
  access_token: string | null;
  refresh_token: string | null;
  id_token: string | null;
  access_token_expires_at: Timestamp | null;
  refresh_token_expires_at: Timestamp | null;
  scope: string | null;
  password: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
};

export type VerificationsTable = {
  id: string;
  identifier: string;
  value: string;
  expires_at: Timestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
};

export type RateLimitsTable = { id: string; key: string; count: number; last_request: number | string };
