// A person's data across the install (issue 18), for superusers: one exact search over every organization's
// projects (GET form, no JavaScript); export and erasure happen in each organization's "Personal data" settings, linked
// from here with the same search, where they are recorded. Others get the 404 page; the core checks again.
import { notFound } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { isAppError } from "@/core/errors";
import { PERSON_FIELDS } from "@/core/personal-data";
import { findPersonEverywhere, type InstancePersonMatch } from "@/core/personal-data-instance";
import { LocaleLink } from "@/i18n/locale-link";
import { TableHead } from "@/web/components/table-head";
import { formatDate } from "@/web/format";
import { requireCore } from "@/web/session";
import { InstanceTabs } from "../instance-tabs";

export const dynamic = "force-dynamic";

const one = (v: string | string[] | undefined): string => (typeof v === "string" ? v : "");

export default async function InstancePersonalDataPage({
  params: { locale },
  searchParams,
}: {
  params: { locale: string };
  searchParams: Record<string, string | string[] | undefined>;
}) {
  const core = await requireCore(locale, `/${locale}/instance/personal-data`);
  if (!core.actor.user.isSuperuser) notFound();
  const t = await getTranslations("personalData");
  const field = one(searchParams.field) || "any";
  const value = one(searchParams.value);
  let result: { matches: InstancePersonMatch[]; more: boolean } | null = null;
  let error: string | null = null;
  if (value !== "") {
    try {
      result = await findPersonEverywhere(core, { field, value });
    } catch (err) {
      if (!isAppError(err) || err.code !== "bad_request") throw err;
      error = t("badSearch");
    }
  }
  const query = new URLSearchParams({ field, value }).toString();
  const orgs = result ? [...new Map(result.matches.map((m) => [m.organizationSlug, m.organizationName])).entries()] : [];
  return (
    <>
      <h1>{t("instanceTitle")}</h1>
      <InstanceTabs locale={locale} current="personal-data" />
      <p className="muted">{t("instanceHint")}</p>
      <form method="get" className="form card" data-testid="instance-personal-data-search">
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
      {result && result.matches.length === 0 ? <p className="muted">{t("none")}</p> : null}
      {result && result.matches.length > 0 ? (
        <section className="card">
          <h2>{t("resultsTitle", { count: result.matches.length })}</h2>
          {result.more ? <p className="muted">{t("more")}</p> : null}
          <div className="table-scroll">
            <table className="table">
              <caption className="visually-hidden">{t("resultsTitle", { count: result.matches.length })}</caption>
              <TableHead columns={[t("organization"), t("project"), t("event"), t("when"), t("matched")]} />
              <tbody>
                {result.matches.map((m) => (
                  <tr key={`${m.projectId}:${m.eventId}`}>
                    <td>{m.organizationName}</td>
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
          <ul>
            {orgs.map(([slug, name]) => (
              <li key={slug}>
                <LocaleLink locale={locale} href={`/orgs/${slug}/settings/privacy?${query}`}>
                  {t("inOrganization", { name })}
                </LocaleLink>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </>
  );
}
