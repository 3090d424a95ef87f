// The audit trail as a screen (organization settings → Audit log; instance settings → Security): a GET form that
// filters by event and by actor (works without JavaScript), the entries newest first with who, when, from which
// address, the note and what changed (old and new values), and a link to the older entries.
import { getTranslations } from "next-intl/server";
import type { AuditPage, AuditView } from "@/core/audit";
import { LocaleLink } from "@/i18n/locale-link";
import { TableHead } from "@/web/components/table-head";
import { formatDate } from "@/web/format";

/** A value as one short line of JSON (the trail keeps settings as Sentry names them). */
const show = (v: unknown) => (typeof v === "string" ? v : JSON.stringify(v));

function Changes({ entry, labels }: { entry: AuditView; labels: { old: string; new: string } }) {
  const old = entry.data.old as Record<string, unknown> | undefined;
  const next = entry.data.new as Record<string, unknown> | undefined;
  if (!old && !next) return null;
  const keys = [...new Set([...Object.keys(old ?? {}), ...Object.keys(next ?? {})])];
  return (
    <dl className="audit-changes">
      {keys.map((k) => (
        <div key={k}>
          <dt>
            <code>{k}</code>
          </dt>
          <dd>
            {old && k in old ? (
              <>
                <span className="visually-hidden">{labels.old}: </span>
                <del>{show(old[k])}</del>{" "}
              </>
            ) : null}
            {next && k in next ? (
              <>
                <span className="visually-hidden">{labels.new}: </span>
                <ins>{show(next[k])}</ins>
              </>
            ) : null}
          </dd>
        </div>
      ))}
    </dl>
  );
}

export async function AuditLog({
  locale,
  page,
  path,
  filters,
}: {
  locale: string;
  page: AuditPage;
  path: string;
  filters: { event?: string; actor?: string };
}) {
  const t = await getTranslations("audit");
  const older = page.nextCursor
    ? `${path}?${new URLSearchParams({ ...(filters.event ? { event: filters.event } : {}), ...(filters.actor ? { actor: filters.actor } : {}), cursor: page.nextCursor })}`
    : null;
  return (
    <>
      <form method="get" className="form filters" role="search" aria-label={t("filter")} data-testid="audit-filters">
        <label className="field">
          <span>{t("event")}</span>
          <select name="event" defaultValue={filters.event ?? ""}>
            <option value="">{t("allEvents")}</option>
            {page.events.map((e) => (
              <option key={e} value={e}>
                {e}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span>{t("actor")}</span>
          <select name="actor" defaultValue={filters.actor ?? ""}>
            <option value="">{t("allActors")}</option>
            {page.actors.map((a) => (
              <option key={a.userId} value={a.userId}>
                {a.label}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className="button">
          {t("apply")}
        </button>
      </form>
      {page.entries.length === 0 ? (
        <p className="muted" data-testid="audit-empty">
          {t("empty")}
        </p>
      ) : (
        <div className="table-scroll">
          <table className="table" data-testid="audit-table">
            <caption className="visually-hidden">{t("caption")}</caption>
            <TableHead columns={[t("when"), t("who"), t("event"), t("address"), t("what")]} />
            <tbody>
              {page.entries.map((e) => (
                <tr key={e.id} data-event={e.event}>
                  <td className="muted">{formatDate(locale, e.createdAt)}</td>
                  <td>{e.actorLabel}</td>
                  <td>
                    <code>{e.event}</code>
                  </td>
                  <td className="muted">{e.ipAddress ?? "—"}</td>
                  <td>
                    {e.note}
                    <Changes entry={e} labels={{ old: t("old"), new: t("new") }} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {older ? (
        <p>
          <LocaleLink locale={locale} href={older} data-testid="audit-older">
            {t("older")}
          </LocaleLink>
        </p>
      ) : null}
    </>
  );
}
