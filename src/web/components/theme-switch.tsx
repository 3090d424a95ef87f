// Light / dark / system: three buttons in a form posting to a server action, so it works without JavaScript too.
import { getTranslations } from "next-intl/server";
import { setThemeAction } from "../actions/theme.action";
import { currentTheme, THEMES } from "../theme";

export async function ThemeSwitch() {
  const t = await getTranslations("theme");
  const current = currentTheme();
  return (
    <form action={setThemeAction} className="theme-switch" aria-label={t("label")} role="group">
      {THEMES.map((theme) => (
        <button key={theme} type="submit" name="theme" value={theme} aria-pressed={theme === current} className="theme-option">
          {t(theme)}
        </button>
      ))}
    </form>
  );
}
