// Checks shared by the dashboard screen tests: layout at 768 px, and that a uPlot chart really drew its data.
import { expect, type Locator, type Page } from "@playwright/test";

/** At 768 px wide the page has no horizontal scroll (charts follow their box a frame later, so this polls). */
export async function noHorizontalScroll(page: Page) {
  await page.setViewportSize({ width: 768, height: 1000 });
  await expect
    .poll(() => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), {
      message: `no horizontal scroll at 768 px on ${page.url()}`,
    })
    .toBeLessThanOrEqual(0);
  await page.setViewportSize({ width: 1280, height: 900 });
}

/** Pixels of the chart's canvas painted in a palette colour (such as "--ok"), as the page's theme resolves it. */
export async function paintedPixels(chart: Locator, variable: string): Promise<number> {
  await expect(chart.locator(".chart-canvas[data-ready=true] canvas")).toBeVisible();
  return chart
    .locator("canvas")
    .first()
    .evaluate((canvas: HTMLCanvasElement, v) => {
      const probe = document.createElement("span");
      probe.style.color = `var(${v})`;
      document.body.append(probe);
      const [r, g, b] = (getComputedStyle(probe).color.match(/\d+/g) ?? []).map(Number);
      probe.remove();
      const data = canvas.getContext("2d")!.getImageData(0, 0, canvas.width, canvas.height).data;
      let n = 0;
      for (let i = 0; i < data.length; i += 4)
        if (Math.abs(data[i]! - r!) < 3 && Math.abs(data[i + 1]! - g!) < 3 && Math.abs(data[i + 2]! - b!) < 3 && data[i + 3]! > 200) n++;
      return n;
    }, variable);
}
