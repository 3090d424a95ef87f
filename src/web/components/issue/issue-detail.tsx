// The issue page: the issue's header and triage controls, one of its events (exception and stack trace,
// breadcrumbs, request, user, contexts, raw JSON), its activity, and beside them when it was seen, how often, and
// its tags, and the user feedback of its events. Shared by the issue's URL (latest event) and its events' URLs.
import { getTranslations } from "next-intl/server";
import { eventData, eventUser } from "@/core/event-data";
import { getIssuePage } from "@/core/issue-page";
import { issueNotifyList } from "@/core/issue-subscriptions";
import { traceIdOfEvent } from "@/core/event-trace";
import { LocaleLink } from "@/i18n/locale-link";
import { formatShortId } from "@/core/short-id";
import { getServices } from "@/runtime/services";
import { loadOrNotFound } from "@/web/load";
import { requireCore } from "@/web/session";
import { ActivityLog } from "./activity-log";
import { AssignForm } from "./assign-form";
import { Breadcrumbs } from "./breadcrumbs";
import { ContextsView } from "./contexts";
import { CopyMarkdown } from "./copy-markdown";
import { DeleteIssue } from "./delete-issue";
import { EventNav } from "./event-nav";
import { eventView } from "./event-view";
import { ExceptionView } from "./exception";
import { FrequencyChart } from "./frequency-chart";
import { IssueFeedback } from "./issue-feedback";
import { EventAttachments } from "./event-attachments";
import { IssueHeader } from "./issue-header";
import { issueMarkdown } from "./issue-markdown";
import { IssueNotify } from "./issue-notify";
import { IssueSeen } from "./issue-seen";
import { ProcessingNotes, processingNotes } from "./processing-notes";
import { RawEvent } from "./raw-event";
import { scrubbedFields } from "./scrubbed-fields";
import { ScrubbedFieldsView } from "./scrubbed-fields-view";
import { RequestView } from "./request";
import { StackTrace } from "./stack-trace";
import { StatusControls } from "./status-controls";
import { TagDistribution } from "./tag-distribution";
import { UserView } from "./user";

type Props = { locale: string; org: string; issueId: string; eventRef: string; environment: string | undefined };

export async function IssueDetail({ locale, org, issueId, eventRef, environment }: Props) {
  const base = `/orgs/${org}/issues/${issueId}`;
  const query = environment ? `?environment=${encodeURIComponent(environment)}` : "";
  const core = await requireCore(locale, `/${locale}${base}${eventRef === "latest" ? "" : `/events/${eventRef}`}${query}`);
  const page = await loadOrNotFound(() => getIssuePage(core, org, issueId, eventRef, environment ?? null));
  const t = await getTranslations("issueDetail");
  const tl = await getTranslations("logs");
  const notify = await issueNotifyList(core, page);
  const { issue, project, event } = page;
  const data = eventData(event);
  const view = eventView(data);
  const user = eventUser(data);
  const contexts = data.contexts && typeof data.contexts === "object" ? (data.contexts as Record<string, unknown>) : {};
  const traceId = traceIdOfEvent(data);

  const member = page.assignable.members.find((m) => m.userId === issue.assigneeId);
  const team = page.assignable.team && page.assignable.team.id === issue.assigneeTeamId ? page.assignable.team : null;
  const assignee = member ? member.name || member.email : team ? `#${team.slug}` : null;
  const currentAssignee = member ? `user:${member.userId}` : team ? `team:${team.id}` : "";

  const { config, basePath } = getServices();
  const markdown = issueMarkdown(
    {
      shortId: formatShortId(project.slug, issue.shortId),
      title: issue.title,
      url: `${config.publicUrl}${basePath}/${locale}${base}`,
      culprit: issue.culprit,
      firstSeen: issue.firstSeen,
      firstRelease: issue.firstRelease,
      lastSeen: issue.lastSeen,
      lastRelease: page.lastRelease,
      events: issue.timesSeen,
      users: issue.userCount,
      exceptions: view.exceptions,
    },
    {
      culprit: t("markdown.culprit"),
      firstSeen: t("seen.firstSeen"),
      lastSeen: t("seen.lastSeen"),
      events: t("seen.events"),
      users: t("seen.users"),
      exception: t("exception.title"),
      causedBy: t("exception.causedBy"),
      frames: t("markdown.frames"),
    },
  );

  return (
    <div className="issue-page">
      <IssueHeader org={org} project={project} issue={issue} assignee={assignee} />
      <div className="issue-toolbar" role="group" aria-label={t("actions.label")}>
        {page.may.update ? <StatusControls locale={locale} org={org} issueId={issueId} status={issue.status} /> : null}
        {page.may.update ? (
          <AssignForm locale={locale} org={org} issueId={issueId} current={currentAssignee} members={page.assignable.members} team={page.assignable.team} />
        ) : null}
        {page.may.delete ? <DeleteIssue locale={locale} org={org} projectSlug={project.slug} issueId={issueId} /> : null}
        <CopyMarkdown markdown={markdown} label={t("copyMarkdown")} copiedLabel={t("copied")} failedLabel={t("copyFailed")} />
      </div>
      <div className="issue-layout">
        <div className="issue-main">
          <EventNav base={base} event={event} next={page.next} previous={page.previous} query={page.outsideEnvironment ? "" : query} />
          {traceId ? (
            <p>
              <LocaleLink locale={locale} href={`/orgs/${org}/traces/${traceId}`} data-testid="event-trace-link">
                {t("traceLink")}
              </LocaleLink>
              {" · "}
              <LocaleLink locale={locale} href={`/orgs/${org}/projects/${project.slug}/logs?trace=${traceId}`} data-testid="event-trace-logs-link">
                {tl("eventLogs")}
              </LocaleLink>
            </p>
          ) : null}
          {page.outsideEnvironment ? (
            <p className="notice" role="status" data-testid="outside-environment">
              {t("outsideEnvironment", { environment: environment ?? "" })}
            </p>
          ) : environment ? (
            <p className="muted" data-testid="environment-note">
              {t("inEnvironment", { environment })}
            </p>
          ) : null}
          {event.unreadable ? (
            <p className="notice" role="status" data-testid="event-data-unreadable">
              {t("unreadableData")}
            </p>
          ) : null}
          <ProcessingNotes notes={processingNotes(data)} />
          <IssueFeedback core={core} locale={locale} org={org} issueId={issue.id} />
          <EventAttachments core={core} locale={locale} org={org} projectSlug={project.slug} eventId={event.eventId} />
          {view.message ? (
            <section className="card" aria-labelledby="message-title">
              <h2 id="message-title">{t("message")}</h2>
              <pre className="code-block" tabIndex={0}>
                {view.message}
              </pre>
            </section>
          ) : null}
          {view.exceptions.length > 0 ? <ExceptionView exceptions={view.exceptions} platform={event.platform} /> : null}
          {view.exceptions.length === 0 && view.stacktrace ? (
            <section className="card" aria-labelledby="stacktrace-title">
              <h2 id="stacktrace-title">{t("stacktrace.title")}</h2>
              <StackTrace stacktrace={view.stacktrace} />
            </section>
          ) : null}
          {view.breadcrumbs.length > 0 ? <Breadcrumbs breadcrumbs={view.breadcrumbs} /> : null}
          {view.request ? <RequestView request={view.request} /> : null}
          {user ? <UserView user={user} /> : null}
          <ContextsView contexts={contexts} />
          <ScrubbedFieldsView fields={scrubbedFields(data)} />
          <RawEvent data={data} />
          <ActivityLog locale={locale} org={org} issueId={issueId} activity={page.activity} actorId={core.actor.user.id} may={page.may} />
        </div>
        <aside className="issue-side" aria-label={t("summary")}>
          <IssueSeen org={org} issue={issue} lastRelease={page.lastRelease} />
          <FrequencyChart frequency={page.frequency} environment={page.inEnvironment?.environment ?? null} locale={locale} />
          <TagDistribution tags={page.tags} inEnvironment={page.inEnvironment} />
          <IssueNotify locale={locale} org={org} issueId={issueId} notify={notify} />
        </aside>
      </div>
    </div>
  );
}
