// Pages Router shell (public docs): the shared stylesheet.
import type { AppProps } from "next/app";
import "../app/globals.css";

export default function DocsApp({ Component, pageProps }: AppProps) {
  return <Component {...pageProps} />;
}
