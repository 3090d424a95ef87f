"use client";
// Route-level error boundary of the dashboard: a helpful message, the digest to quote, and a retry.
import { useTranslations } from "next-intl";
import { useEffect } from "react";
import { reportBoundaryError } from "@/web/self-monitoring/report";

export default function DashboardError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  const t = useTranslations("errors");
  useEffect(() => {
    console.error(error);
    reportBoundaryError(error);
  }, [error]);
  return (
    <section className="card error-panel" role="alert" data-testid="route-error">
      <h1>{t("title")}</h1>
      <p>{t("body")}</p>
      {error.digest ? (
        <p className="muted">
          {t("digest")} <code>{error.digest}</code>
        </p>
      ) : null}
      <button type="button" className="button" onClick={() => reset()}>
        {t("retry")}
      </button>
    </section>
  );
}
