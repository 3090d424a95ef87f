"use client";
// Route-level error boundary of the dashboard: a helpful message, the digest to quote, and a retry.
import { useEffect } from "react";
import { useRouteErrorTexts } from "@/web/components/route-error-texts";
import { reportBoundaryError } from "@/web/self-monitoring/report";

export default function DashboardError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  const texts = useRouteErrorTexts();
  useEffect(() => {
    console.error(error);
    reportBoundaryError(error);
  }, [error]);
  return (
    <section className="card error-panel" role="alert" data-testid="route-error">
      <h1>{texts.title}</h1>
      <p>{texts.body}</p>
      {error.digest ? (
        <p className="muted">
          {texts.digest} <code>{error.digest}</code>
        </p>
      ) : null}
      <button type="button" className="button" onClick={() => reset()}>
        {texts.retry}
      </button>
    </section>
  );
}
