// The docs' HTML document, with lang set from the URL's locale segment.
import Document, { Head, Html, Main, NextScript } from "next/document";

export default class DocsDocument extends Document {
  render() {
    const locale = this.props.__NEXT_DATA__.query.locale;
    return (
      <Html lang={typeof locale === "string" ? locale : "en"}>
        <Head />
        <body>
          <Main />
          <NextScript />
        </body>
      </Html>
    );
  }
}
