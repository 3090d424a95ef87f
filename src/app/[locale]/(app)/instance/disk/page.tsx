// Instance settings, disk (superusers): the data dir's usage by kind, its growth per day over the last week and the
// days the free disk lasts at that rate (core/disk-usage.ts). Others get the 404 page; the core checks again.
import { Fragment } from "react";
import { notFound } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { instanceDiskUsage } from "@/core/disk-usage";
import { diskProbe } from "@/ops/disk-probe";
import { getServices } from "@/runtime/services";
import { formatBytes } from "@/web/format";
import { loadOrNotFound } from "@/web/load";
import { requireCore } from "@/web/session";
import { InstanceTabs } from "../instance-tabs";

export const dynamic = "force-dynamic";

const KINDS = ["database", "artifacts", "spool", "attachments", "other"] as const;

export default async function InstanceDiskPage({ params: { locale } }: { params: { locale: string } }) {
  const core = await requireCore(locale, `/${locale}/instance/disk`);
  if (!core.actor.user.isSuperuser) notFound();
  const t = await getTranslations("instanceDisk");
  const s = getServices();
  const view = await loadOrNotFound(() => instanceDiskUsage(core, diskProbe(s.config.dataDir, s.db)));
  return (
    <>
      <h1>{t("title")}</h1>
      <InstanceTabs locale={locale} current="disk" />
      <p className="muted">{t("intro", { dir: s.config.dataDir })}</p>
      {view.status === "unavailable" ? (
        <p className="card" role="alert" data-testid="disk-unavailable">
          {t("unavailable", { reason: view.reason })}
        </p>
      ) : (
        <section className="card" data-testid="disk-usage">
          <dl className="facts">
            {KINDS.map((k) => (
              <Fragment key={k}>
                <dt>{t(k)}</dt>
                <dd data-testid={`disk-${k}`}>{formatBytes(locale, view.usage.bytes[k])}</dd>
              </Fragment>
            ))}
            <dt>{t("free")}</dt>
            <dd>{t("freeOf", { free: formatBytes(locale, view.usage.freeBytes), total: formatBytes(locale, view.usage.totalBytes) })}</dd>
            <dt>{t("growth")}</dt>
            <dd data-testid="disk-growth">
              {view.growth.bytesPerDay === null
                ? t("growthUnknown", { samples: view.growth.samples })
                : t("perDay", { bytes: formatBytes(locale, Math.abs(view.growth.bytesPerDay)), sign: view.growth.bytesPerDay < 0 ? "-" : "+" })}
            </dd>
            <dt>{t("daysLeft")}</dt>
            <dd data-testid="disk-days-left">{view.growth.daysLeft === null ? t("daysLeftNone") : t("days", { days: view.growth.daysLeft })}</dd>
          </dl>
          {view.usage.dialect === "postgres" ? <p className="muted">{t("postgresNote")}</p> : null}
          {view.sampleError ? <p role="alert">{t("sampleError", { reason: view.sampleError })}</p> : null}
        </section>
      )}
    </>
  );
}
