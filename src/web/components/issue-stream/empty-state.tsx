// The stream before any issue: how to send a first event (the project's DSN and its SDK guide, as on the project's
// setup page) and a button that sends a real test event through the intake.
import { getTranslations } from "next-intl/server";
import type { CoreContext } from "@/core/context";
import { buildDsn, listKeys } from "@/core/keys";
import { docsSlugFor } from "@/core/platforms";
import { LocaleLink } from "@/i18n/locale-link";
import { getServices } from "@/runtime/services";
import type { Project } from "@/storage/ports";
import { sendTestEventAction } from "@/web/actions/issue-stream.action";
import { ActionForm, SubmitButton } from "../action-form";
import { CopyField } from "../copy-field";

export async function EmptyState({
  core,
  org,
  locale,
  project,
  canSend,
}: {
  core: CoreContext;
  org: string;
  locale: string;
  project: Project | null;
  canSend: boolean;
}) {
  const t = await getTranslations("issueStream.empty");
  if (!project) {
    return (
      <section className="card stream-empty" data-testid="stream-empty">
        <h2>{t("title")}</h2>
        <p>{t("noProjects")}</p>
        <LocaleLink locale={locale} href={`/orgs/${org}`} className="button">
          {t("createProject")}
        </LocaleLink>
      </section>
    );
  }
  const { keys } = await listKeys(core, org, project.slug);
  const { config, basePath } = getServices();
  const key = keys.find((k) => k.isActive);
  const dsn = key ? buildDsn(config.publicUrl, basePath, key, project).public : null;
  const slug = docsSlugFor(project.platform);
  return (
    <section className="card stream-empty" data-testid="stream-empty">
      <h2>{t("title")}</h2>
      <p>{t("body", { project: project.name })}</p>
      {dsn ? <CopyField value={dsn} label={t("dsn")} copyLabel={t("copy")} copiedLabel={t("copied")} /> : <p className="form-error">{t("noActiveKey")}</p>}
      <p>
        {/* The DSN travels in the fragment, so it never reaches server logs; the docs page fills it in. */}
        <a className="button secondary" href={`${basePath}/${locale}/docs${slug ? `/${slug}` : ""}${dsn ? `#dsn=${encodeURIComponent(dsn)}` : ""}`}>
          {t("guide")}
        </a>
      </p>
      {canSend && dsn ? (
        <ActionForm action={sendTestEventAction.bind(null, locale, org, project.slug)} className="inline-form" testId="test-event-form">
          <p className="muted">{t("testEventHint")}</p>
          <SubmitButton>{t("sendTestEvent")}</SubmitButton>
        </ActionForm>
      ) : null}
    </section>
  );
}
