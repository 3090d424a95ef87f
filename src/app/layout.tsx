// The root document. The locale comes from the URL (set by the locale middleware) so that even the root
// 404 page is in the visitor's language. The colour theme comes from its cookie, so the first paint is right.
import { getLocale } from "next-intl/server";
import type { ReactNode } from "react";
import { currentTheme } from "@/web/theme";
import "./globals.css";

export default async function RootLayout({ children }: { children: ReactNode }) {
  const locale = await getLocale();
  return (
    <html lang={locale} data-theme={currentTheme()}>
      <body>{children}</body>
    </html>
  );
}
