// The one 404 look, shared by the App Router (dashboard) and the Pages Router (docs).
import type { ReactNode } from "react";

export function NotFoundView({ title, body, back, href, children }: { title: string; body: string; back: string; href: string; children?: ReactNode }) {
  return (
    // data-not-found-page: the marker on which self-monitoring discards this page's page load (web/self-monitoring).
    <main className="not-found" data-testid="not-found" data-not-found-page="">
      <p className="not-found-code">404</p>
      <h1>{title}</h1>
      <p>{body}</p>
      {children}
      {/* A plain anchor: this page is shared with the Pages Router, whose Link is not the App Router's. */}
      <a className="button" href={href}>
        {back}
      </a>
    </main>
  );
}
