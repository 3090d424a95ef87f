// A person's data (issue 18): owners and superusers search every project of the organization for a user's events
// (exact id, e-mail, username or IP address), download them as JSON, and erase them after a second, confirming post.
// The search is a GET form (no JavaScript); the erasure a server action.
import { getTranslations } from "next-intl/server";
import { allowed, type OrgAccess } from "@/core/access";
import type { CoreContext } from "@/core/context";
import { isAppError } from "@/core/errors";
import { findPersonEvents, listErasures, PERSON_FIELDS, type PersonMatch } from "@/core/personal-data";
import { getServices } from "@/runtime/services";
import { erasePersonDataAction } from "@/web/actions/personal-data.action";
import { ActionForm, SubmitButton } from "@/web/components/action-form";
import { TableHead } from "@/web/components/table-head";
import { formatDate } from "@/web/format";

type Search = { field?: string; value?: string; confirm?: string };

export async function PrivacySection({ core, access, locale, search }: { core: CoreContext; access: OrgAccess; locale: string; search: Search }) {
  const t = await getTranslations("personalData");
  if (!allowed(access, "privacy:manage")) return <p className="muted">{t("notAllowed")}</p>;
  const field = typeof search.field === "string" ? search.field : "any";
  const value = typeof search.value === "string" ? search.value : "";
  let result: { matches: PersonMatch[]; more: boolean } | null = null;
  let error: string | null = null;
  if (value !== "") {
    try {
      result = await findPersonEvents(core, access.org.slug, { field, value });
    } catch (err) {
      if (!isAppError(err) || err.code !== "bad_request") throw err;
      error = t("badSearch");
    }
  }
  const { basePath } = getServices();
  const erasures = await listErasures(core, access.org.slug);
  const query = new URLSearchParams({ field, value }).toString();
  return (
    <>
      <p className="muted">{t("hint")}</p>
      <section className="card">
        <h2>{t("searchTitle")}</h2>
        <form method="get" className="form" data-testid="personal-data-search">
          <label className="field">
            <span>{t("field")}</span>
            <select name="field" defaultValue={(PERSON_FIELDS as readonly string[]).includes(field) ? field : "any"}>
              {PERSON_FIELDS.map((f) => (
                <option key={f} value={f}>
                  {t(`fields.${f}`)}
                </option>
              ))}
            </select>
          </label>
          <label className="field">
            <span>{t("value")}</span>
            <input name="value" type="search" defaultValue={value} required maxLength={200} autoComplete="off" />
          </label>
          {error ? (
            <p className="field-error" role="alert">
              {error}
            </p>
          ) : null}
          <button type="submit" className="button">
            {t("search")}
          </button>
        </form>
      </section>
      {result ? (
        result.matches.length === 0 ? (
          <p className="muted" data-testid="personal-data-none">
            {t("none")}
          </p>
        ) : (
          <section className="card" data-testid="personal-data-results">
            <h2>{t("resultsTitle", { count: result.matches.length })}</h2>
            {result.more ? <p className="muted">{t("more")}</p> : null}
            <div className="table-scroll">
              <table className="table">
                <caption className="visually-hidden">{t("resultsTitle", { count: result.matches.length })}</caption>
                <TableHead columns={[t("project"), t("event"), t("when"), t("matched")]} />
                <tbody>
                  {result.matches.map((m) => (
                    <tr key={`${m.projectId}:${m.eventId}`}>
                      <td>{m.projectName}</td>
                      <td>
                        <code>{m.eventId}</code> {m.title}
                      </td>
                      <td>{formatDate(locale, m.receivedAt)}</td>
                      <td>{m.fields.map((f) => t(`fields.${f}`)).join(", ")}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <p>
              <a
                className="button secondary"
                href={`${basePath}/api/0/organizations/${access.org.slug}/personal-data/export/?${query}`}
                download
                data-testid="personal-data-export"
              >
                {t("export")}
              </a>
            </p>
            {search.confirm !== "erase" ? (
              <form method="get" className="inline-form">
                <input type="hidden" name="field" value={field} />
                <input type="hidden" name="value" value={value} />
                <input type="hidden" name="confirm" value="erase" />
                <button type="submit" className="button danger">
                  {t("erase")}
                </button>
              </form>
            ) : null}
          </section>
        )
      ) : null}
      {result && search.confirm === "erase" ? (
        // Outside the results: after the erasure the page shows no results, and this form its counts.
        <section className="card danger-zone" data-testid="personal-data-confirm">
          <h2>{t("confirmTitle")}</h2>
          <p>{t("confirmText")}</p>
          <ActionForm action={erasePersonDataAction.bind(null, locale, access.org.slug)} testId="personal-data-erase">
            <input type="hidden" name="field" value={field} />
            <input type="hidden" name="value" value={value} />
            <SubmitButton variant="danger">{t("eraseConfirm")}</SubmitButton>
          </ActionForm>
        </section>
      ) : null}
      {erasures.length > 0 ? (
        <section className="card" data-testid="personal-data-erasures">
          <h2>{t("erasuresTitle")}</h2>
          <div className="table-scroll">
            <table className="table">
              <caption className="visually-hidden">{t("erasuresTitle")}</caption>
              <TableHead columns={[t("when"), t("erasedBy"), t("field"), t("erasedCounts")]} />
              <tbody>
                {erasures.map((e) => (
                  <tr key={e.id}>
                    <td>{formatDate(locale, e.createdAt)}</td>
                    <td>{e.actor}</td>
                    <td>{(PERSON_FIELDS as readonly string[]).includes(e.field) ? t(`fields.${e.field as (typeof PERSON_FIELDS)[number]}`) : e.field}</td>
                    <td>{t("countsLine", e.counts)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
      ) : null}
    </>
  );
}
