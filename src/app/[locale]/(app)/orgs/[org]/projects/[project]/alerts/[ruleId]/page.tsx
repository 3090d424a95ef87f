// One issue alert rule: its editor (or "new"), its history, a test notification and deletion.
import { getTranslations } from "next-intl/server";
import { alertRuleHistory, listAlertRules, ruleTargets } from "@/core/alert-rules";
import { getServices } from "@/runtime/services";
import { deleteAlertRuleAction, saveAlertRuleAction, testAlertRuleAction } from "@/web/actions/alert-rules.action";
import { ruleToForm } from "@/web/alert-rule-form";
import { ActionForm, SubmitButton } from "@/web/components/action-form";
import { DeliveryTable } from "@/web/components/alert-deliveries";
import { AlertRuleEditor } from "@/web/components/alert-rule-editor";
import { ProjectNav } from "@/web/components/project-nav";
import { loadOrNotFound } from "@/web/load";
import { requireCore } from "@/web/session";

export const dynamic = "force-dynamic";

export default async function AlertRulePage({ params }: { params: { locale: string; org: string; project: string; ruleId: string } }) {
  const core = await requireCore(params.locale, `/${params.locale}/orgs/${params.org}/projects/${params.project}/alerts/${params.ruleId}`);
  const isNew = params.ruleId === "new";
  const { access, project, canWrite } = await loadOrNotFound(() => listAlertRules(core, params.org, params.project));
  const found = isNew ? null : await loadOrNotFound(() => alertRuleHistory(core, params.org, params.project, params.ruleId));
  const { teams, members } = await ruleTargets(core, params.org);
  const t = await getTranslations("alerts");
  const rule = found?.rule ?? null;
  const bind = [params.locale, access.org.slug, project.slug] as const;
  return (
    <>
      <ProjectNav org={access.org} project={project} current="alerts" />
      <h1>{rule ? rule.name : t("create")}</h1>
      {canWrite ? (
        <section className="card">
          <AlertRuleEditor
            action={saveAlertRuleAction.bind(null, ...bind, rule?.id ?? null)}
            values={ruleToForm(rule)}
            teams={teams}
            members={members}
            mailReady={getServices().mailer.available}
            isNew={isNew}
          />
        </section>
      ) : isNew ? (
        <p className="muted">{t("readOnly")}</p>
      ) : (
        <pre className="card" data-testid="rule-json">
          {JSON.stringify({ conditions: rule?.conditions, filters: rule?.filters, actions: rule?.actions }, null, 2)}
        </pre>
      )}
      {rule ? (
        <>
          <section className="card" aria-labelledby="history-title">
            <h2 id="history-title">{t("historyTitle")}</h2>
            {canWrite ? (
              <ActionForm action={testAlertRuleAction.bind(null, ...bind, rule.id)} successMessage={t("testSent")} testId="alert-rule-test-form">
                <SubmitButton variant="secondary">{t("sendTest")}</SubmitButton>
              </ActionForm>
            ) : null}
            {found!.history.length === 0 ? (
              <p className="muted">{t("noHistory")}</p>
            ) : (
              <DeliveryTable rows={found!.history} locale={params.locale} testId="rule-history" />
            )}
          </section>
          {canWrite ? (
            <section className="card danger-zone">
              <ActionForm action={deleteAlertRuleAction.bind(null, ...bind, rule.id)} testId="alert-rule-delete-form">
                <SubmitButton variant="danger">{t("delete")}</SubmitButton>
              </ActionForm>
            </section>
          ) : null}
        </>
      ) : null}
    </>
  );
}
