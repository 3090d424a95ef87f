// The issue's activity, newest first: comments (editable by their author, deletable by the author or a moderator)
// and what happened to the issue (first seen, resolved, regressed, assigned…), with a form for a new comment.
import { getTranslations } from "next-intl/server";
import type { ActivityWithUser } from "@/core/issue-activity";
import { AddComment, DeleteComment, EditComment } from "./comment-forms";
import { When } from "./when";

type Props = { locale: string; org: string; issueId: string; activity: ActivityWithUser[]; actorId: string; may: { comment: boolean; moderate: boolean } };

/** What an activity entry names besides its type: the release of a resolution or regression, the assignee. */
function detailOf(a: ActivityWithUser): string {
  const d = a.data;
  const pick = (k: string) => (typeof d[k] === "string" ? (d[k] as string) : "");
  return pick("version") || pick("current_release_version") || pick("assigneeEmail") || "";
}

export async function ActivityLog({ locale, org, issueId, activity, actorId, may }: Props) {
  const t = await getTranslations("issueDetail.activity");
  return (
    <section className="card" aria-labelledby="activity-title" data-testid="activity">
      <h2 id="activity-title">{t("title")}</h2>
      {may.comment ? <AddComment locale={locale} org={org} issueId={issueId} /> : null}
      <ol className="activity-list">
        {activity.map((a) => {
          const who = a.user ? a.user.name || a.user.email : t("system");
          const text = typeof a.data.text === "string" ? a.data.text : "";
          const kind = a.type === "set_resolved_in_release" && a.data.inNextRelease ? "set_resolved_in_next_release" : a.type;
          const detail = detailOf(a);
          return (
            <li key={a.id} className={`activity-item activity-${a.type}`} data-testid={a.type === "note" ? "comment" : "activity-entry"} data-type={a.type}>
              <p className="activity-head">
                <strong>{who}</strong> {t.has(`types.${kind}`) ? t(`types.${kind}`) : a.type}
                {detail ? <code className="activity-detail"> {detail}</code> : null}{" "}
                <span className="muted">
                  <When iso={a.createdAt} />
                </span>
              </p>
              {a.type === "note" ? (
                <>
                  <p className="note-text">{text}</p>
                  <div className="row">
                    {a.userId === actorId && may.comment ? <EditComment locale={locale} org={org} issueId={issueId} commentId={a.id} text={text} /> : null}
                    {may.comment && (a.userId === actorId || may.moderate) ? (
                      <DeleteComment locale={locale} org={org} issueId={issueId} commentId={a.id} />
                    ) : null}
                  </div>
                </>
              ) : null}
            </li>
          );
        })}
      </ol>
    </section>
  );
}
