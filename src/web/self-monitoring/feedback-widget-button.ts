// The attribute of the header's "Report a problem" button, shared by the layout that renders it and the widget that
// attaches to it (feedback-widget.ts), without the layout importing the SDK.
export const FEEDBACK_BUTTON = "data-faultline-feedback";

/** The widget's labels the button carries (data-labels, JSON), from the "reportProblem" messages of the page's language. */
export const FEEDBACK_LABELS = [
  "triggerLabel",
  "formTitle",
  "nameLabel",
  "namePlaceholder",
  "emailLabel",
  "emailPlaceholder",
  "messageLabel",
  "messagePlaceholder",
  "isRequiredLabel",
  "submitButtonLabel",
  "cancelButtonLabel",
  "successMessageText",
] as const;
