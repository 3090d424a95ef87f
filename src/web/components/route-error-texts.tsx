"use client";
// The dashboard's error boundary ((app)/error.tsx) in the person's language, without translating in the browser: the
// signed-in layout (a server component) gives the texts here, and the boundary, which sits inside that layout, reads
// them. No client component translates (tests/core/i18n.test.ts), so the ICU message parser stays out of every page.
import { createContext, type ReactNode, useContext } from "react";

export type RouteErrorTexts = { title: string; body: string; digest: string; retry: string };

const ENGLISH: RouteErrorTexts = {
  title: "Something went wrong",
  body: "This page could not be shown. Try again; if it keeps failing, tell your Faultline administrator and quote the reference below.",
  digest: "Reference:",
  retry: "Try again",
};

const Texts = createContext<RouteErrorTexts>(ENGLISH);

export function RouteErrorTextsProvider({ texts, children }: { texts: RouteErrorTexts; children: ReactNode }) {
  return <Texts.Provider value={texts}>{children}</Texts.Provider>;
}

export const useRouteErrorTexts = (): RouteErrorTexts => useContext(Texts);
