// A link to a page in the same language, for server components that have the locale at hand (every page has it in
// its params). next-intl's Link reads the locale from the request with `use()`, so in a server component each one
// suspends once and becomes a chunk of its own in the RSC payload: 25 per issue stream page. For a link that keeps the
// language, next-intl's renders next/link with the locale prefix; this renders the same, synchronously. Switching the
// language stays with next-intl (the locale switcher), which also keeps the locale cookie in step.
import NextLink from "next/link";
import type { ComponentProps } from "react";

/** `href`: the path after the locale, from its leading "/". */
type Props = Omit<ComponentProps<typeof NextLink>, "href"> & { locale: string; href: string };

export function LocaleLink({ locale, href, ...rest }: Props) {
  return <NextLink href={`/${locale}${href}`} {...rest} />;
}
