// The message namespaces client components read with useTranslations. Every other string is translated on the
// server, so only these travel to the browser in every page's payload (all of them would add ~19 kB to each page).
// tests/core/i18n-client-messages.test.ts checks that every client component's namespace is listed here.
export const CLIENT_NAMESPACES = ["nav", "errors"] as const;

/** The part of a locale's messages that client components need. */
export function clientMessages(messages: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(CLIENT_NAMESPACES.filter((ns) => Object.hasOwn(messages, ns)).map((ns) => [ns, messages[ns]]));
}
