// A moment shown as "3 minutes ago", with the full UTC date and time in its title and datetime attribute.
import { getFormatter } from "next-intl/server";

export async function When({ iso }: { iso: string }) {
  const format = await getFormatter();
  const date = new Date(iso);
  const full = format.dateTime(date, { dateStyle: "medium", timeStyle: "medium", timeZone: "UTC" });
  return (
    <time dateTime={iso} title={`${full} UTC`}>
      {format.relativeTime(date, new Date())}
    </time>
  );
}
