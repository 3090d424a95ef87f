// User feedback (issue 19): what one feedback keeps, from the widget, captureFeedback, user reports and the
// user-feedback API alike, and what the inbox lists. Each limit with its unit and the reason for its value;
// config/limits.ts gathers the files.

export const FEEDBACK_LIMITS = {
  /**
   * characters; a feedback message beyond this is cut (and the feedback notes it). Sentry's widget has no limit of its
   * own and Relay keeps contexts.feedback.message whole within the 1 MiB event; 16,384 characters keep a long report
   * (a pasted stack trace) and bound what the inbox renders.
   */
  maxMessageLength: 16_384,
  /** characters; a name beyond this is cut: Sentry's UserReport.name is a 128-character column. */
  maxNameLength: 128,
  /** characters; an e-mail address beyond this is cut: Sentry's UserReport.email is a 75-character EmailField, RFC 5321 allows 254. */
  maxEmailLength: 254,
  /** characters; a page URL beyond this is cut: browsers and proxies commonly stop near 2,048, and the inbox shows it whole. */
  maxUrlLength: 2_048,
  /** characters of a browser, OS or device name or a tag value in the details; Relay's tag values stop at 200. */
  maxDetailLength: 200,
  /** tags kept in a feedback's details; the feedback widget sends a handful, the rest stay on the feedback event. */
  maxTags: 50,
  /** feedback per inbox page, newest first. */
  pageSize: 50,
  /** feedback shown under an issue (its events' feedback, newest first). */
  perIssue: 20,
  /** bytes; the body of POST .../user-feedback/: four short strings, far below the 1 MiB user_report item. */
  maxApiBody: 65_536,
} as const;
