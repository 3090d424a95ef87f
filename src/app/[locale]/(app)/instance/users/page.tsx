// Instance settings, for the install's superusers: every account, and a form to create one (as `faultline
// createuser` does); the hosts notifications may reach on private networks. Others get the 404 page; the core checks
// again on every read and in the action.
import { notFound } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { listAccounts } from "@/core/accounts";
import { getNotificationAllowedHosts } from "@/core/notification-hosts";
import { pageRequest } from "@/core/pagination";
import { LocaleLink } from "@/i18n/locale-link";
import { createAccountAction } from "@/web/actions/accounts.action";
import { setNotificationHostsAction } from "@/web/actions/notification-hosts.action";
import { ActionForm, Field, SubmitButton } from "@/web/components/action-form";
import { TableHead } from "@/web/components/table-head";
import type { PageRequest } from "@/storage/ports";
import { formatDate } from "@/web/format";
import { loadOrNotFound } from "@/web/load";
import { requireCore } from "@/web/session";
import { InstanceTabs } from "../instance-tabs";

export const dynamic = "force-dynamic";

/** accounts per page of the list */
const PAGE_SIZE = 100;

/** A cursor not shaped like one of this list's names no page: the 404 page, not an error. */
function cursorOrNotFound(cursor: unknown): PageRequest {
  try {
    return pageRequest("email", { cursor: typeof cursor === "string" ? cursor : null });
  } catch {
    notFound();
  }
}

export default async function InstanceUsersPage({ params: { locale }, searchParams }: { params: { locale: string }; searchParams: { cursor?: string } }) {
  const core = await requireCore(locale, `/${locale}/instance/users`);
  if (!core.actor.user.isSuperuser) notFound();
  const t = await getTranslations("instance");
  const th = await getTranslations("notificationHosts");
  const allowedHosts = await getNotificationAllowedHosts(core);
  const page = await loadOrNotFound(() => listAccounts(core, { ...cursorOrNotFound(searchParams.cursor), limit: PAGE_SIZE }));
  return (
    <>
      <h1>{t("title")}</h1>
      <InstanceTabs locale={locale} current="users" />
      <p className="muted">{t("intro")}</p>
      <div className="table-scroll">
        <table className="table" data-testid="account-table">
          <caption className="visually-hidden">{t("accounts")}</caption>
          <TableHead columns={[t("email"), t("name"), t("createdAt")]} />
          <tbody>
            {page.items.map((u) => (
              <tr key={u.id}>
                <td>
                  {u.email}
                  {u.isSuperuser ? <span className="badge">{t("superuserBadge")}</span> : null}
                </td>
                <td>{u.name}</td>
                <td>{formatDate(locale, u.createdAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {page.nextCursor ? (
        <p>
          <LocaleLink locale={locale} href={`/instance/users?cursor=${page.nextCursor}`}>
            {t("next")}
          </LocaleLink>
        </p>
      ) : null}
      <section className="card">
        <h2>{t("create")}</h2>
        <p className="muted">{t("createHint")}</p>
        <ActionForm action={createAccountAction.bind(null, locale)} testId="create-account-form" resetOnSuccess>
          <Field name="email" label={t("email")} type="email" autoComplete="off" required />
          <Field name="name" label={t("name")} autoComplete="off" />
          <Field name="password" label={t("password")} type="password" autoComplete="new-password" required />
          <p>
            <label className="check-field">
              <input type="checkbox" name="isSuperuser" /> {t("superuser")}
            </label>
          </p>
          <SubmitButton>{t("createSubmit")}</SubmitButton>
        </ActionForm>
      </section>
      <section className="card">
        <h2>{th("title")}</h2>
        <p className="muted">{th("hint")}</p>
        <ActionForm action={setNotificationHostsAction.bind(null, locale)} testId="notification-hosts-form">
          <Field name="hosts" label={th("hosts")} defaultValue={allowedHosts.join(", ")} autoComplete="off" placeholder="chat.intranet.example, 10.0.0.5" />
          <SubmitButton>{th("submit")}</SubmitButton>
        </ActionForm>
      </section>
    </>
  );
}
