// The text of an issue's live figure (events, users, last seen), as the server renders it in the stream's rows
// (issue-table.tsx) and as the page's live updates rewrite it (live.tsx): both must agree.
import { formatCompactCount, formatWhen } from "@/web/format";

export const liveText = (locale: string, value: number | string) => (typeof value === "number" ? formatCompactCount(locale, value) : formatWhen(locale, value));
