// next-intl's per-request configuration: the locale from the URL and its messages.
import { getRequestConfig } from "next-intl/server";
import { DEFAULT_LOCALE, isLocale } from "./routing";

export default getRequestConfig(async ({ requestLocale }) => {
  const requested = await requestLocale;
  const locale = isLocale(requested) ? requested : DEFAULT_LOCALE;
  return { locale, messages: (await import(`./messages/${locale}.json`)).default };
});
