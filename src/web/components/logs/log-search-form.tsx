// The logs page's search: a GET form (no JavaScript needed) with the search box, the level, a period or a time range
// in UTC, and the trace the page is narrowed to, if any (kept as a hidden field, with a link that drops it).
import { getTranslations } from "next-intl/server";
import { LocaleLink } from "@/i18n/locale-link";
import { LOG_PERIODS, type LogQueryEcho } from "@/core/log-query";
import { LOG_LEVELS } from "@/storage/log-ports";

/** An ISO instant as a datetime-local field's value (UTC, to the second). */
const localValue = (iso: string | null) => (iso ? iso.slice(0, 19) : "");

export async function LogSearchForm({ locale, logsPath, query }: { locale: string; logsPath: string; query: LogQueryEcho }) {
  const t = await getTranslations("logs");
  return (
    <form method="get" className="card log-search" role="search" data-testid="log-search">
      <div className="log-search-main">
        <label htmlFor="log-query">{t("searchLabel")}</label>
        <input id="log-query" name="query" type="search" defaultValue={query.query} maxLength={500} aria-describedby="log-query-hint" />
        <button type="submit" className="button">
          {t("apply")}
        </button>
      </div>
      <p id="log-query-hint" className="muted">
        {t("searchHint")}
      </p>
      <div className="log-search-fields">
        <label>
          {t("level")}{" "}
          <select name="level" defaultValue={query.level ?? ""} data-testid="log-level">
            <option value="">{t("allLevels")}</option>
            {LOG_LEVELS.map((l) => (
              <option key={l} value={l}>
                {l}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t("period")}{" "}
          <select name="period" defaultValue={query.period ?? ""} data-testid="log-period">
            <option value="">{t("periods.all")}</option>
            {Object.keys(LOG_PERIODS).map((p) => (
              <option key={p} value={p}>
                {t(`periods.${p}`)}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t("from")} <input type="datetime-local" name="from" step={1} defaultValue={localValue(query.from)} data-testid="log-from" />
        </label>
        <label>
          {t("to")} <input type="datetime-local" name="to" step={1} defaultValue={localValue(query.to)} data-testid="log-to" />
        </label>
        {query.trace ? <input type="hidden" name="trace" value={query.trace} /> : null}
      </div>
      <p>
        {query.trace ? (
          <>
            <span data-testid="log-trace-filter">{t("traceFilter", { trace: query.trace })}</span>{" "}
            <LocaleLink locale={locale} href={`${logsPath}?query=${encodeURIComponent(query.query)}`}>
              {t("clearTrace")}
            </LocaleLink>{" "}
          </>
        ) : null}
        <LocaleLink locale={locale} href={logsPath}>
          {t("clear")}
        </LocaleLink>
      </p>
    </form>
  );
}
