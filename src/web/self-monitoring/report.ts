"use client";
// Reports an error a React boundary caught in the browser, through the SDK loaded after hydration. An error with a
// digest happened on the server, which has reported it (server.ts) with that digest; the browser leaves it alone.
export function reportBoundaryError(error: Error & { digest?: string }): void {
  if (error.digest) return;
  void import("./browser").then((m) => m.captureBoundaryError(error)).catch(() => undefined);
}
