// Numbers and times in the issue stream, formatted the same way on the server and in the browser (UTC), so a
// figure updated live looks like the one rendered first.
export const formatCount = (locale: string, n: number) => new Intl.NumberFormat(locale, { notation: n >= 100_000 ? "compact" : "standard" }).format(n);

export const formatWhen = (locale: string, iso: string) => new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" }).format(new Date(iso));
