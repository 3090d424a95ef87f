// The stored event's JSON, folded away until asked for.
import { getTranslations } from "next-intl/server";
import type { EventJson } from "@/core/event-data";

export async function RawEvent({ data }: { data: EventJson }) {
  const t = await getTranslations("issueDetail");
  return (
    <details className="card raw-json" data-testid="raw-json">
      <summary>{t("rawJson")}</summary>
      <pre className="code-block" tabIndex={0}>
        {JSON.stringify(data, null, 2)}
      </pre>
    </details>
  );
}
