"use client";
// Each tag key with its top values as bars, from figures the server computed and texts it translated
// (tag-distribution.tsx). A client component for the size of the page, as the stream's rows are
// (issue-stream/issue-rows.tsx): it travels in the RSC payload as this data rather than as its element tree.

/** One tag key: its "N unique" text and its top values with their share in whole percent. */
export type TagBars = { key: string; unique: string; values: { value: string; percent: number }[] };

export function TagList({ tags }: { tags: TagBars[] }) {
  return tags.map((tag) => (
    <div key={tag.key} className="tag-dist" data-testid={`tag-${tag.key}`}>
      <h3>
        {tag.key} <span className="muted">{tag.unique}</span>
      </h3>
      <ul>
        {tag.values.map((v) => (
          <li key={v.value} className="tag-value">
            <span className="tag-value-name">{v.value}</span>
            <span className="tag-value-pct">{v.percent}%</span>
            <span className="tag-bar" aria-hidden="true">
              <span style={{ width: `${v.percent}%` }} />
            </span>
          </li>
        ))}
      </ul>
    </div>
  ));
}
