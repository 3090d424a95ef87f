// The root document. The locale comes from the URL (set by the locale middleware) so that even the root
// 404 page is in the visitor's language. The colour theme comes from its cookie, so the first paint is right.
import { getLocale } from "next-intl/server";
import type { ReactNode } from "react";
import { SELF_MONITORING_META } from "@/web/self-monitoring/client-config";
import { selfMonitoringClientConfig } from "@/web/self-monitoring/server-config";
import { currentTheme } from "@/web/theme";
import "./globals.css";

export default async function RootLayout({ children }: { children: ReactNode }) {
  const locale = await getLocale();
  // Self-monitoring: the browser learns the internal project's DSN and sample rates from the page (instrumentation-client.ts).
  const monitoring = await selfMonitoringClientConfig();
  return (
    <html lang={locale} data-theme={currentTheme()}>
      <head>{monitoring ? <meta name={SELF_MONITORING_META} content={JSON.stringify(monitoring)} /> : null}</head>
      <body>{children}</body>
    </html>
  );
}
