"use client";
// Route-level error boundary of the dashboard: a helpful message, the digest to quote, and a retry.
// The retry asks the server again: reset() alone re-renders the segment from the router's cache, which still holds the
// server's error, so a passing failure (a busy database, a restart) would never clear. router.refresh() fetches the
// route anew and reset() shows it, both in one transition (vercel/next.js#63369).
import { useRouter } from "next/navigation";
import { useEffect, useTransition } from "react";
import { useRouteErrorTexts } from "@/web/components/route-error-texts";
import { reportBoundaryError } from "@/web/self-monitoring/report";

export default function DashboardError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  const texts = useRouteErrorTexts();
  const router = useRouter();
  const [retrying, startTransition] = useTransition();
  useEffect(() => {
    console.error(error);
    reportBoundaryError(error);
  }, [error]);
  const retry = () =>
    startTransition(() => {
      router.refresh();
      reset();
    });
  return (
    <section className="card error-panel" role="alert" data-testid="route-error">
      <h1>{texts.title}</h1>
      <p>{texts.body}</p>
      {error.digest ? (
        <p className="muted">
          {texts.digest} <code>{error.digest}</code>
        </p>
      ) : null}
      <button type="button" className="button" onClick={retry} disabled={retrying} aria-busy={retrying}>
        {texts.retry}
      </button>
    </section>
  );
}
