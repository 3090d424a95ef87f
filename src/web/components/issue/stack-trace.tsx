// A stack trace, most recent call first, with a checkbox that hides the frames outside the application (CSS only,
// so it works without JavaScript); the first in-app frame is opened on its source.
import { getTranslations } from "next-intl/server";
import { newestFirst, type Stacktrace } from "./event-view";
import { FrameItem } from "./frame";

export async function StackTrace({ stacktrace }: { stacktrace: Stacktrace }) {
  const t = await getTranslations("issueDetail.stacktrace");
  const frames = newestFirst(stacktrace.frames);
  const firstInApp = frames.findIndex((f) => f.inApp);
  const mixed = firstInApp >= 0 && frames.some((f) => !f.inApp);
  return (
    <div className="stacktrace" data-testid="stacktrace">
      {mixed ? (
        <label className="in-app-toggle">
          <input type="checkbox" defaultChecked data-testid="in-app-only" /> {t("inAppOnly")}
        </label>
      ) : null}
      <ol className="frames" aria-label={t("frames")}>
        {frames.map((f, i) => (
          <FrameItem key={i} frame={f} open={i === Math.max(0, firstInApp)} />
        ))}
      </ol>
    </div>
  );
}
