// The organizations the user belongs to, and a form to create one.
import { getTranslations } from "next-intl/server";
import { listOrganizations } from "@/core/organizations";
import { LocaleLink } from "@/i18n/locale-link";
import { createOrganizationAction } from "@/web/actions/organizations.action";
import { ActionForm, Field, SubmitButton } from "@/web/components/action-form";
import { requireCore } from "@/web/session";

export const dynamic = "force-dynamic";

export default async function OrganizationsPage({ params: { locale } }: { params: { locale: string } }) {
  const core = await requireCore(locale, `/${locale}/orgs`);
  const t = await getTranslations("orgs");
  const { items } = await listOrganizations(core, { limit: 100 });
  return (
    <>
      <h1>{t("title")}</h1>
      {items.length === 0 ? <p className="muted">{t("empty")}</p> : null}
      <ul className="tile-list" data-testid="org-list">
        {items.map((o) => (
          <li key={o.id}>
            <LocaleLink locale={locale} href={`/orgs/${o.slug}`} className="tile">
              <strong>{o.name}</strong>
              <span className="muted">{o.slug}</span>
            </LocaleLink>
          </li>
        ))}
      </ul>
      <section className="card">
        <h2>{t("create")}</h2>
        <ActionForm action={createOrganizationAction.bind(null, locale)} testId="create-org-form">
          <Field name="name" label={t("name")} required />
          <Field name="slug" label={t("slug")} placeholder={t("slugHint")} />
          <SubmitButton>{t("createSubmit")}</SubmitButton>
        </ActionForm>
      </section>
    </>
  );
}
