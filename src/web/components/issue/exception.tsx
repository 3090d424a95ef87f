// The exception and the chain of exceptions that caused it, each with its stack trace and its raw text.
import { getTranslations } from "next-intl/server";
import type { ExceptionValue } from "./event-view";
import { rawStacktrace } from "./raw-stacktrace";
import { StackTrace } from "./stack-trace";

export async function ExceptionView({ exceptions, platform }: { exceptions: ExceptionValue[]; platform: string }) {
  const t = await getTranslations("issueDetail.exception");
  return (
    <section className="card" aria-labelledby="exception-title" data-testid="exception-section">
      <h2 id="exception-title">{t("title")}</h2>
      {exceptions.map((e, i) => (
        <div key={i} className="exception" data-testid="exception">
          {i > 0 ? <p className="caused-by">{t("causedBy")}</p> : null}
          <h3>
            <code>{e.type ?? t("untyped")}</code>
            {e.mechanism?.handled === false ? <span className="badge warn">{t("unhandled")}</span> : null}
          </h3>
          {e.value ? <p className="exception-value">{e.value}</p> : null}
          {e.stacktrace && e.stacktrace.frames.length > 0 ? (
            <>
              <StackTrace stacktrace={e.stacktrace} />
              <details className="raw-stacktrace">
                <summary>{t("raw")}</summary>
                <pre data-testid="raw-stacktrace" tabIndex={0}>
                  {rawStacktrace(e, platform)}
                </pre>
              </details>
              {e.rawStacktrace && e.rawStacktrace.frames.length > 0 ? (
                <details className="raw-stacktrace">
                  <summary>{t("rawAsSent")}</summary>
                  <pre data-testid="raw-stacktrace-as-sent" tabIndex={0}>
                    {rawStacktrace(e, platform, true)}
                  </pre>
                </details>
              ) : null}
            </>
          ) : (
            <p className="muted">{t("noStacktrace")}</p>
          )}
        </div>
      ))}
    </section>
  );
}
