// Two-factor sign-in's tables (migration 0034), as Kysely sees them.
import type { Generated } from "kysely";

type Bool = boolean | number;

/** better-auth's twoFactor plugin's table; written by better-auth, read here only to tell whether a person enrolled. */
export type TwoFactorsTable = {
  id: string;
  secret: string;
  backup_codes: string;
  user_id: string;
  verified: Generated<Bool>;
  failed_verification_count: Generated<number>;
  locked_until: Date | string | null;
};

/** A TOTP code that was accepted, until it can no longer be valid (so that it is accepted once). */
export type TwoFactorUsedCodesTable = { user_id: string; code: string; expires_at: string };

export type TwoFactorTables = { two_factors: TwoFactorsTable; two_factor_used_codes: TwoFactorUsedCodesTable };
