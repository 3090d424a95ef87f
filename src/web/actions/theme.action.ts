"use server";
// Remembers the colour theme; the page re-renders with it. Anyone may choose one, signed in or not.
import { cookies } from "next/headers";
import { isTheme, THEME_COOKIE, THEME_COOKIE_MAX_AGE } from "../theme";
import { isForm } from "./result";

export async function setThemeAction(form: FormData): Promise<void> {
  if (!isForm(form)) return;
  const theme = form.get("theme");
  if (!isTheme(theme)) return;
  cookies().set(THEME_COOKIE, theme, { path: "/", maxAge: THEME_COOKIE_MAX_AGE, sameSite: "lax", httpOnly: true });
}
