// Accessibility checks with axe-core: the serious and critical violations of what a page shows, in light and dark.
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { screenshot } from "./helpers";

export const COLOR_SCHEMES = ["light", "dark"] as const;

type Violation = Awaited<ReturnType<AxeBuilder["analyze"]>>["violations"][number];

/** One line per violation and per element, readable in a test's failure message. */
export function describeViolations(violations: Violation[]): string {
  return violations
    .map((v) =>
      [
        `${v.impact}: ${v.id} — ${v.help} (${v.helpUrl})`,
        ...v.nodes.map((n) => `    ${n.target.join(" ")}: ${n.failureSummary?.replace(/\s+/g, " ") ?? ""}`),
      ].join("\n"),
    )
    .join("\n");
}

const TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"];
/**
 * The rules whose result can change with the palette. The theme (web/theme.ts) only swaps colour variables, so every
 * other rule finds in the dark what it found in the light; the dark pass runs these alone, which halves its time.
 */
const COLOUR_RULES = ["color-contrast", "link-in-text-block"];

/**
 * Checks the page in each colour scheme (reloading nothing: the palette follows prefers-color-scheme), writes a
 * screenshot <name>-<scheme>.png of each, and returns the serious and critical violations found, described: every rule
 * of the tags in the light, the colour rules in the dark.
 */
export async function seriousViolations(page: Page, name: string): Promise<string[]> {
  const found: string[] = [];
  for (const colorScheme of COLOR_SCHEMES) {
    await page.emulateMedia({ colorScheme });
    await screenshot(page, `${name}-${colorScheme}`);
    const axe = new AxeBuilder({ page });
    const { violations } = await (colorScheme === "light" ? axe.withTags(TAGS) : axe.withRules(COLOUR_RULES)).analyze();
    const serious = violations.filter((v) => v.impact === "serious" || v.impact === "critical");
    if (serious.length > 0) found.push(`${name} (${colorScheme}):\n${describeViolations(serious)}`);
  }
  await page.emulateMedia({ colorScheme: null });
  return found;
}
