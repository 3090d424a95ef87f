// The account page's "Sessions": where the person is signed in (device read from the user agent, address, when it
// signed in, when it was last seen), this session marked; signing out any other session, or all of them.
import { getTranslations } from "next-intl/server";
import type { CoreContext } from "@/core/context";
import { listSessions, type SessionView } from "@/core/sessions";
import { revokeOtherSessionsAction, revokeSessionAction } from "@/web/actions/sessions.action";
import { formatDate } from "@/web/format";
import { ActionForm, SubmitButton } from "../action-form";

type T = Awaited<ReturnType<typeof getTranslations<"account.sessions">>>;

function deviceText(t: T, s: SessionView): string {
  const { browser, os, platform } = s.device;
  const name = [browser, os].filter(Boolean).join(" · ");
  if (!name) return t("unknownDevice");
  return platform ? `${name} (${t(platform)})` : name;
}

/** `done`: what the last action did (its row is gone from the list, so the page says it): "revoked", or "others" with `count`. */
export async function AccountSessions({
  locale,
  core,
  sessionId,
  done,
  count,
}: {
  locale: string;
  core: CoreContext;
  sessionId: string;
  done?: string;
  count?: number;
}) {
  const t = await getTranslations("account.sessions");
  const sessions = await listSessions(core, sessionId);
  const others = sessions.filter((s) => !s.current).length;
  return (
    <>
      <p className="muted">{t("hint")}</p>
      {done === "revoked" || (done === "others" && count !== undefined) ? (
        <p className="form-ok" role="status" data-testid="sessions-done">
          {done === "revoked" ? t("revoked") : t("othersRevoked", { count: count ?? 0 })}
        </p>
      ) : null}
      <table className="table" data-testid="session-table">
        <thead>
          <tr>
            <th scope="col">{t("device")}</th>
            <th scope="col">{t("address")}</th>
            <th scope="col">{t("created")}</th>
            <th scope="col">{t("lastSeen")}</th>
            <th scope="col">
              <span className="visually-hidden">{t("revoke")}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {sessions.map((s) => (
            <tr key={s.id} data-testid="session-row" data-current={s.current ? "true" : "false"}>
              <td>
                <span title={s.userAgent ?? undefined}>{deviceText(t, s)}</span>
                {s.current ? (
                  <>
                    {" "}
                    <strong className="badge" data-testid="this-session">
                      {t("current")}
                    </strong>
                  </>
                ) : null}
              </td>
              <td>
                <code>{s.ipAddress || t("unknownAddress")}</code>
              </td>
              <td className="muted">{formatDate(locale, s.createdAt)}</td>
              <td className="muted">{s.lastSeenAt ? formatDate(locale, s.lastSeenAt) : t("notSeen")}</td>
              <td className="actions">
                {s.current ? null : (
                  <ActionForm action={revokeSessionAction.bind(null, locale)} className="inline-form" testId="revoke-session-form">
                    <input type="hidden" name="sessionId" defaultValue={s.id} />
                    <SubmitButton variant="danger">
                      {t("revoke")}
                      <span className="visually-hidden"> {t("revokeLabel", { device: deviceText(t, s) })}</span>
                    </SubmitButton>
                  </ActionForm>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {others > 0 ? (
        <ActionForm action={revokeOtherSessionsAction.bind(null, locale)} testId="revoke-other-sessions-form">
          <SubmitButton variant="danger">{t("revokeOthers")}</SubmitButton>
        </ActionForm>
      ) : (
        <p className="muted">{t("onlyThis")}</p>
      )}
    </>
  );
}
