"use client";
// The fallback when an error escapes every boundary: Next.js's own fallback page, unchanged (its exact wording and
// digest are runtime-spec §8), plus the report of a browser-side error to self-monitoring. A server-side error (one
// with a digest) was reported by the server, with that digest (web/self-monitoring/server.ts).
import NextGlobalError from "next/dist/client/components/error-boundary";
import { useEffect } from "react";
import { reportBoundaryError } from "@/web/self-monitoring/report";

export default function GlobalError({ error }: { error: Error & { digest?: string } }) {
  useEffect(() => reportBoundaryError(error), [error]);
  return <NextGlobalError error={error} />;
}
