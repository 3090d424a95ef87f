// Two-factor sign-in (issue 20, migration 0034): whether a person enrolled, an organization's "require two-factor",
// and the codes already used. The secret and the recovery codes are better-auth's (auth/two-factor.ts), never read here.

export interface TwoFactorStore {
  /** Whether the person confirmed a two-factor enrolment (better-auth's twoFactorEnabled). */
  userHasTwoFactor(userId: string): Promise<boolean>;
  /** An organization's "require two-factor" (false for an organization that does not exist). */
  getRequireTwoFactor(organizationId: number): Promise<boolean>;
  setRequireTwoFactor(organizationId: number, on: boolean): Promise<void>;
  /**
   * Marks `code` as used by the person until `expiresAt` (ISO 8601), dropping the person's marks that expired by
   * `now`. True if it was not used before; false if it was (also when two requests race with the same code: one wins).
   */
  claimTotpCode(userId: string, code: string, expiresAt: string, now: string): Promise<boolean>;
}
