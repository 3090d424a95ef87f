// The one error vocabulary of the core. Each boundary (API route, server action, CLI) maps it in one place.

export const ERROR_STATUS = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  request_timeout: 408,
  conflict: 409,
  payload_too_large: 413,
  uri_too_long: 414,
  rate_limited: 429,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/**
 * A failure the caller can act on. `fields` carries per-field messages for forms and the API; `isValidation` marks
 * input that failed its schema (the message then only summarizes the fields).
 */
export class AppError extends Error {
  readonly isAppError = true;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly fields?: Record<string, string[]>,
    readonly isValidation = false,
  ) {
    super(message);
    this.name = "AppError";
  }
}

/** Works across bundles (the custom server and Next's server bundle each load their own copy of this module). */
export function isAppError(err: unknown): err is AppError {
  return typeof err === "object" && err !== null && (err as { isAppError?: unknown }).isAppError === true;
}

export const notFound = (what: string) => new AppError("not_found", `${what} not found`);
export const forbidden = (message = "You do not have permission to do this") => new AppError("forbidden", message);

export const TWO_FACTOR_REQUIRED_MESSAGE =
  "This organization requires two-factor authentication: turn it on for your account (Account → Two-factor authentication) to continue";

/** Forbidden for a person without two-factor in an organization requiring it (core/two-factor.ts), marked so that pages send the person to the enrolment page rather than a 404. */
export class TwoFactorRequiredError extends AppError {
  readonly twoFactorRequired = true;
  constructor(readonly orgSlug: string) {
    super("forbidden", TWO_FACTOR_REQUIRED_MESSAGE);
  }
}

/** Works across bundles, as isAppError. */
export function isTwoFactorRequired(err: unknown): err is TwoFactorRequiredError {
  return typeof err === "object" && err !== null && (err as { twoFactorRequired?: unknown }).twoFactorRequired === true;
}
