// "Report a problem" (issue 19): the feedback widget of Faultline's own @sentry/nextjs, attached to the button the
// signed-in pages' header renders hidden (app/[locale]/(app)/layout.tsx, with its labels in the page's language). It
// loads with the SDK, after the page is interactive (browser.ts), so it is no route's first-load JavaScript; the
// feedback goes through the same tunnel into the internal project, where the feedback inbox shows it.
//
// The widget draws its form in a shadow root with style elements, which the dashboard's policy lets run only with
// the page's nonce (web/security-headers.ts, style-src-elem): it takes the nonce Next put on the page's scripts.
// Screenshots are off: they need the screen-capture permission and an upload Faultline does not store.
import * as Sentry from "@sentry/nextjs";
import { FEEDBACK_BUTTON, FEEDBACK_LABELS } from "./feedback-widget-button";
import { redactEventUrls, redactUrl } from "./redact-urls";

type FeedbackLabels = Partial<Record<(typeof FEEDBACK_LABELS)[number], string>>;

/** The labels the button carries (JSON in its data-labels), strings only. */
function readLabels(json: string | undefined): FeedbackLabels {
  const out: FeedbackLabels = {};
  try {
    const v = JSON.parse(json ?? "{}") as Record<string, unknown>;
    for (const k of FEEDBACK_LABELS) if (typeof v[k] === "string") out[k] = v[k] as string;
  } catch {
    // No labels: the SDK's own English ones.
  }
  return out;
}

const themeOf = (v: string | undefined): "light" | "dark" | "system" => (v === "light" || v === "dark" ? v : "system");

export function attachFeedbackWidget(): void {
  const button = document.querySelector<HTMLButtonElement>(`button[${FEEDBACK_BUTTON}]`);
  if (!button) return;
  const nonce = document.querySelector<HTMLScriptElement>("script[nonce]")?.nonce || undefined;
  const feedback = Sentry.feedbackIntegration({
    autoInject: false,
    showBranding: false,
    enableScreenshot: false,
    // The theme switch's choice (html[data-theme]: light, dark or system), as the dashboard's own colours follow it.
    colorScheme: themeOf(document.documentElement.dataset.theme),
    styleNonce: nonce,
    tags: { feedback_source: "faultline-report-a-problem" },
    ...readLabels(button.dataset.labels),
  });
  // Feedback events skip beforeSend: their URLs (the page's, in contexts.feedback.url, and the request's) are redacted
  // here as every other event's are (redact-urls.ts).
  Sentry.addEventProcessor((event) => {
    if (event.type !== "feedback") return event;
    const context = event.contexts?.feedback as { url?: unknown } | undefined;
    if (context && typeof context.url === "string") context.url = redactUrl(context.url);
    return redactEventUrls(event);
  });
  Sentry.addIntegration(feedback);
  feedback.attachTo(button);
  button.hidden = false;
}
