// The bulk form's controls: resolve, unresolve, ignore with a condition (forever, for a while, until N events or N
// users, optionally within a window), assign to a member or a team. Buttons name the operation (`op`), so the form
// works without JavaScript.
import { getTranslations } from "next-intl/server";
import type { SearchSuggestions } from "@/core/issue-stream";
import { SelectAll } from "./live";

const DURATIONS = [30, 120, 360, 1440, 10080];
const WINDOWS = [60, 1440, 10080];

export async function BulkBar({ people }: { people: Pick<SearchSuggestions, "users" | "teams"> }) {
  const t = await getTranslations("issueStream.bulk");
  const minutes = (m: number) => (m % 1440 === 0 ? t("days", { count: m / 1440 }) : m % 60 === 0 ? t("hours", { count: m / 60 }) : t("minutes", { count: m }));
  return (
    <div className="bulk-bar" data-testid="bulk-bar">
      <SelectAll label={t("selectAll")} />
      <button type="submit" name="op" value="resolve" className="button" data-testid="bulk-resolve">
        {t("resolve")}
      </button>
      <button type="submit" name="op" value="unresolve" className="button secondary">
        {t("unresolve")}
      </button>
      <details className="bulk-menu">
        <summary className="button secondary">{t("ignore")}</summary>
        <fieldset>
          <legend>{t("ignoreUntil")}</legend>
          <label>
            <input type="radio" name="ignoreMode" value="forever" defaultChecked /> {t("forever")}
          </label>
          <label>
            <input type="radio" name="ignoreMode" value="duration" /> {t("forDuration")}{" "}
            <select name="ignoreDuration" aria-label={t("duration")} defaultValue="1440">
              {DURATIONS.map((m) => (
                <option key={m} value={m}>
                  {minutes(m)}
                </option>
              ))}
            </select>
          </label>
          <label>
            <input type="radio" name="ignoreMode" value="count" /> {t("untilEvents")}{" "}
            <input type="number" name="ignoreCount" min={1} defaultValue={100} aria-label={t("eventCount")} className="narrow" />
          </label>
          <label>
            <input type="radio" name="ignoreMode" value="users" /> {t("untilUsers")}{" "}
            <input type="number" name="ignoreUserCount" min={1} defaultValue={10} aria-label={t("userCount")} className="narrow" />
          </label>
          <label>
            {t("window")}{" "}
            <select name="ignoreWindow" defaultValue="">
              <option value="">{t("ever")}</option>
              {WINDOWS.map((m) => (
                <option key={m} value={m}>
                  {minutes(m)}
                </option>
              ))}
            </select>
          </label>
          <button type="submit" name="op" value="ignore" className="button" data-testid="bulk-ignore">
            {t("ignoreSelected")}
          </button>
        </fieldset>
      </details>
      <label className="assign">
        {t("assignTo")}{" "}
        <select name="assignee" defaultValue="">
          <option value="">{t("nobody")}</option>
          <optgroup label={t("members")}>
            {people.users.map((u) => (
              <option key={u.id} value={`user:${u.id}`}>
                {u.name ? `${u.name} (${u.email})` : u.email}
              </option>
            ))}
          </optgroup>
          {people.teams.length > 0 ? (
            <optgroup label={t("teams")}>
              {people.teams.map((tm) => (
                <option key={tm.id} value={`team:${tm.id}`}>
                  #{tm.slug}
                </option>
              ))}
            </optgroup>
          ) : null}
        </select>
      </label>
      <button type="submit" name="op" value="assign" className="button secondary" data-testid="bulk-assign">
        {t("assign")}
      </button>
    </div>
  );
}
