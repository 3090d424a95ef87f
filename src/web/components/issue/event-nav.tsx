// Which event is shown (id, time, release, environment) and the way to the oldest, previous, next and latest one.
import { getLocale, getTranslations } from "next-intl/server";
import { LocaleLink } from "@/i18n/locale-link";
import type { StoredEvent } from "@/storage/ports";
import { When } from "./when";

type Props = { base: string; event: StoredEvent; next: string | null; previous: string | null; query: string };

export async function EventNav({ base, event, next, previous, query }: Props) {
  const t = await getTranslations("issueDetail.events");
  // One read of the locale for the links below, instead of one suspension per link (i18n/locale-link.tsx).
  const locale = await getLocale();
  const step = (id: string, label: string, target: string | null, testId: string) =>
    target ? (
      <LocaleLink locale={locale} key={id} className="button secondary" href={`${base}/events/${target}${query}`} data-testid={testId}>
        {label}
      </LocaleLink>
    ) : (
      <span key={id} className="button secondary disabled" aria-disabled="true" data-testid={testId}>
        {label}
      </span>
    );
  return (
    <section className="card event-nav" aria-labelledby="event-title" data-testid="event-nav">
      <div className="event-nav-head">
        <h2 id="event-title">
          {t("title")} <code data-testid="event-id">{event.eventId}</code>
        </h2>
        <nav className="event-steps" aria-label={t("navigation")}>
          {step("oldest", t("oldest"), previous ? "oldest" : null, "event-oldest")}
          {step("previous", t("previous"), previous, "event-previous")}
          {step("next", t("next"), next, "event-next")}
          {step("latest", t("latest"), next ? "latest" : null, "event-latest")}
        </nav>
      </div>
      <p className="muted event-meta">
        <When iso={event.timestamp} />
        {event.release ? <> · {t("release", { release: event.release })}</> : null}
        {event.environment ? <> · {t("environment", { environment: event.environment })}</> : null}
      </p>
    </section>
  );
}
