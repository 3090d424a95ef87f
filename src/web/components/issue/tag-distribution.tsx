// The issue's tags: per key, its most frequent values with their share of the issue's events as a bar (of its newest
// events in the page's environment, when one is chosen: core/issue-environment.ts).
import { getTranslations } from "next-intl/server";
import type { IssueTagSummary } from "@/storage/issue-ports";
import { type TagBars, TagList } from "./tag-list";

const percent = (count: number, total: number) => (total > 0 ? Math.round((count / total) * 100) : 0);

type Scope = { environment: string; taggedEvents: number } | null;

export async function TagDistribution({ tags, inEnvironment }: { tags: IssueTagSummary[]; inEnvironment: Scope }) {
  const t = await getTranslations("issueDetail.tags");
  const bars = tags.map(
    (tag): TagBars => ({
      key: tag.key,
      unique: t("unique", { count: tag.uniqueValues }),
      values: tag.topValues.map((v) => ({ value: v.value, percent: percent(v.count, tag.totalValues) })),
    }),
  );
  return (
    <section className="card" aria-labelledby="tags-title" data-testid="tags">
      <h2 id="tags-title">{t("title")}</h2>
      {inEnvironment ? (
        <p className="muted" data-testid="tags-environment">
          {t("inEnvironment", { count: inEnvironment.taggedEvents, environment: inEnvironment.environment })}
        </p>
      ) : null}
      {tags.length === 0 ? <p className="muted">{t("none")}</p> : <TagList tags={bars} />}
    </section>
  );
}
