// Whether writes fail for want of space, as this process met them (storage/storage-full.ts, the same state as
// GET /api/health's `storage`), and the signed-out sessions refused in memory until their rows can be deleted.
import { getTranslations } from "next-intl/server";
import { pendingRevokedSessions } from "@/auth/revoked-sessions";
import { storageState } from "@/storage/storage-full";
import { formatDate } from "@/web/format";

export async function StorageSection({ locale }: { locale: string }) {
  const t = await getTranslations("diagnostics.storage");
  const state = storageState();
  const pending = pendingRevokedSessions();
  return (
    <section aria-labelledby="storage-title" data-testid="storage-state">
      <h2 id="storage-title">{t("title")}</h2>
      {state.status === "ok" ? (
        <p data-testid="storage-ok">{t("ok")}</p>
      ) : (
        <p role="alert" data-testid="storage-full">
          {t("full", { since: formatDate(locale, state.since), last: formatDate(locale, state.lastFailedAt), what: t(`writes.${state.what}`) })}
        </p>
      )}
      {pending > 0 ? <p data-testid="storage-revoked-sessions">{t("revokedSessions", { count: pending })}</p> : null}
      <p className="muted">{t("intro")}</p>
    </section>
  );
}
