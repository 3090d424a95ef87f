// The event's contexts: browser, operating system, device and runtime first, then any other the SDK sent.
import { getTranslations } from "next-intl/server";
import { KeyValues } from "./key-values";

const FIRST = ["browser", "os", "device", "runtime", "app"];
/** Contexts that describe tracing or the SDK's bookkeeping rather than where the event happened. */
const HIDDEN = new Set(["trace", "otel"]);

type Context = Record<string, unknown>;

export async function ContextsView({ contexts }: { contexts: Record<string, unknown> }) {
  const t = await getTranslations("issueDetail.contexts");
  const entries = Object.entries(contexts).filter((e): e is [string, Context] => !HIDDEN.has(e[0]) && !!e[1] && typeof e[1] === "object");
  entries.sort(([a], [b]) => (FIRST.includes(a) ? FIRST.indexOf(a) : FIRST.length) - (FIRST.includes(b) ? FIRST.indexOf(b) : FIRST.length));
  if (entries.length === 0) return null;
  return (
    <section className="card" aria-labelledby="contexts-title" data-testid="contexts">
      <h2 id="contexts-title">{t("title")}</h2>
      <div className="context-grid">
        {entries.map(([key, c]) => {
          const { type: _type, name, version, ...rest } = c;
          return (
            <div key={key} className="context-card" data-testid={`context-${key}`}>
              <h3>
                {t.has(`kinds.${key}`) ? t(`kinds.${key}`) : key}
                {name ? (
                  <span className="muted">
                    {" "}
                    {String(name)}
                    {version ? ` ${String(version)}` : ""}
                  </span>
                ) : null}
              </h3>
              <KeyValues values={rest} />
            </div>
          );
        })}
      </div>
    </section>
  );
}
