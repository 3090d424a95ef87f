// The dashboard's colour theme: light, dark, or the system's (prefers-color-scheme). The choice lives in a cookie the
// root layout reads, so the first paint already has it (`<html data-theme>`), with no flash and no script.
import "server-only";
import { cookies } from "next/headers";

export const THEMES = ["system", "light", "dark"] as const;
export type Theme = (typeof THEMES)[number];
export const THEME_COOKIE = "faultline-theme";
/** seconds; the choice is kept for a year. */
export const THEME_COOKIE_MAX_AGE = 365 * 86400;

export const isTheme = (v: unknown): v is Theme => typeof v === "string" && (THEMES as readonly string[]).includes(v);

export function currentTheme(): Theme {
  const v = cookies().get(THEME_COOKIE)?.value;
  return isTheme(v) ? v : "system";
}
