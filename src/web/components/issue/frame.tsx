// One stack frame: where it is (file, function, line), whether it is the application's own code, and when opened
// its source lines around the call and its local variables.
import { getTranslations } from "next-intl/server";
import type { Frame } from "./event-view";
import { KeyValues } from "./key-values";

export async function FrameItem({ frame: f, open }: { frame: Frame; open: boolean }) {
  const t = await getTranslations("issueDetail.stacktrace");
  const vars = f.vars && Object.keys(f.vars).length > 0 ? f.vars : null;
  return (
    <li className="frame" data-in-app={String(f.inApp)} data-testid="frame">
      <details open={open}>
        <summary>
          <code className="frame-file">{f.filename ?? f.module ?? "?"}</code> {t("in")} <code className="frame-fn">{f.function ?? "?"}</code>
          {f.lineNo !== null ? <span className="muted"> {t("at", { line: f.lineNo, column: f.colNo ?? 0 })}</span> : null}
          {f.inApp ? <span className="badge">{t("inApp")}</span> : null}
        </summary>
        {f.context.length > 0 ? (
          <div className="context-lines" data-testid="context-lines" role="group" aria-label={t("source")} tabIndex={0}>
            {f.context.map(([n, line], i) => (
              <div key={i} className={n === f.lineNo ? "context-line current" : "context-line"} aria-current={n === f.lineNo ? "true" : undefined}>
                <span className="line-no">{n ?? ""}</span>
                <code>{line}</code>
              </div>
            ))}
          </div>
        ) : (
          <p className="muted">{t("noContext")}</p>
        )}
        {vars ? (
          <div className="frame-vars" data-testid="frame-vars">
            <h4>{t("vars")}</h4>
            <KeyValues values={vars} />
          </div>
        ) : null}
      </details>
    </li>
  );
}
