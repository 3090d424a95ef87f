// The HTTP request the event happened in: method and URL, query, headers, cookies and body.
import { getTranslations } from "next-intl/server";
import type { RequestData } from "./event-view";
import { KeyValues } from "./key-values";

const pairs = (v: unknown): [string, unknown][] =>
  Array.isArray(v)
    ? v.filter((p): p is [string, unknown] => Array.isArray(p) && typeof p[0] === "string")
    : v && typeof v === "object"
      ? Object.entries(v)
      : [];

export async function RequestView({ request: r }: { request: RequestData }) {
  const t = await getTranslations("issueDetail.request");
  const query =
    typeof r.query === "string"
      ? r.query
      : pairs(r.query)
          .map(([k, v]) => `${k}=${String(v)}`)
          .join("&");
  const headers = pairs(r.headers);
  const cookies = pairs(r.cookies);
  return (
    <section className="card" aria-labelledby="request-title" data-testid="request">
      <h2 id="request-title">{t("title")}</h2>
      <p className="request-line">
        <code>
          {r.method ?? "GET"} {r.url ?? ""}
          {query ? `?${query}` : ""}
        </code>
      </p>
      {headers.length > 0 ? (
        <>
          <h3>{t("headers")}</h3>
          <KeyValues values={headers} />
        </>
      ) : null}
      {cookies.length > 0 ? (
        <>
          <h3>{t("cookies")}</h3>
          <KeyValues values={cookies} />
        </>
      ) : null}
      {r.data !== null && r.data !== undefined ? (
        <>
          <h3>{t("body")}</h3>
          <pre className="code-block" tabIndex={0}>
            {typeof r.data === "string" ? r.data : JSON.stringify(r.data, null, 2)}
          </pre>
        </>
      ) : null}
    </section>
  );
}
