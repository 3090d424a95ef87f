// The issue's tags: per key, its most frequent values with their share of the issue's events as a bar (of its newest
// events in the page's environment, when one is chosen: core/issue-environment.ts).
import { getTranslations } from "next-intl/server";
import type { IssueTagSummary } from "@/storage/issue-ports";

const percent = (count: number, total: number) => (total > 0 ? Math.round((count / total) * 100) : 0);

type Scope = { environment: string; taggedEvents: number } | null;

export async function TagDistribution({ tags, inEnvironment }: { tags: IssueTagSummary[]; inEnvironment: Scope }) {
  const t = await getTranslations("issueDetail.tags");
  return (
    <section className="card" aria-labelledby="tags-title" data-testid="tags">
      <h2 id="tags-title">{t("title")}</h2>
      {inEnvironment ? (
        <p className="muted" data-testid="tags-environment">
          {t("inEnvironment", { count: inEnvironment.taggedEvents, environment: inEnvironment.environment })}
        </p>
      ) : null}
      {tags.length === 0 ? <p className="muted">{t("none")}</p> : null}
      {tags.map((tag) => (
        <div key={tag.key} className="tag-dist" data-testid={`tag-${tag.key}`}>
          <h3>
            {tag.key} <span className="muted">{t("unique", { count: tag.uniqueValues })}</span>
          </h3>
          <ul>
            {tag.topValues.map((v) => {
              const p = percent(v.count, tag.totalValues);
              return (
                <li key={v.value} className="tag-value">
                  <span className="tag-value-name">{v.value}</span>
                  <span className="tag-value-pct">{p}%</span>
                  <span className="tag-bar" aria-hidden="true">
                    <span style={{ width: `${p}%` }} />
                  </span>
                </li>
              );
            })}
          </ul>
        </div>
      ))}
    </section>
  );
}
