"use client";
// A time series drawn with uPlot on the client from data the server sent. uPlot is imported after hydration, so it
// is never part of a page's first-load JavaScript; until it arrives (and without JavaScript) the figure shows the
// totals in text. The canvas is decorative for screen readers: the figure's label and caption carry the numbers.
// Colours are CSS custom properties of the palette, resolved when drawing and again when the theme changes. Times
// are drawn in UTC, as every table of the dashboard shows them, whatever the reader's timezone.
import { useEffect, useRef } from "react";
import type uPlot from "uplot";
import "uplot/dist/uPlot.min.css";

/** `color` names a palette variable, such as "--accent". */
/** `values` may hold null where a series has no value (a gap in a line). */
export type ChartSeries = { label: string; values: (number | null)[]; color: string };
export type TimeSeries = { /** bucket starts, Unix seconds */ times: number[]; series: ChartSeries[] };

type Props = { data: TimeSeries; kind?: "bars" | "line"; height?: number; label: string; summary: string; testId?: string };

/**
 * A palette colour as the browser resolves it (the variables hold light-dark() pairs, which only an element's computed
 * colour turns into one colour), with a translucent variant for fills.
 */
function paint(probe: HTMLElement, variable: string): { solid: string; faint: string } {
  probe.style.color = `var(${variable}, currentColor)`;
  const solid = getComputedStyle(probe).color;
  const rgb = /^rgba?\((\d+),\s*(\d+),\s*(\d+)/.exec(solid);
  return { solid, faint: rgb ? `rgba(${rgb[1]}, ${rgb[2]}, ${rgb[3]}, 0.2)` : solid };
}

function options(kind: "bars" | "line", width: number, height: number, data: TimeSeries, UPlot: typeof uPlot, probe: HTMLElement): uPlot.Options {
  const series = data.series;
  const muted = paint(probe, "--muted").solid;
  const grid = paint(probe, "--border").solid;
  const axis = { stroke: muted, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1 } };
  // Bars are centred on their bucket, and the x scale reaches half a bucket past each end, so the first and the
  // latest bucket (the one still counting) are drawn whole.
  const bars = kind === "bars" ? UPlot.paths.bars?.({ size: [0.8, 40], align: 0 }) : undefined;
  const half = kind === "bars" && data.times.length > 1 ? (data.times[1]! - data.times[0]!) / 2 : 0;
  return {
    width,
    height,
    legend: { show: series.length > 1 },
    cursor: { drag: { x: false, y: false } },
    tzDate: (ts) => UPlot.tzDate(new Date(ts * 1000), "Etc/UTC"),
    scales: { x: { time: true, range: (_u, min, max) => [min - half, max + half] }, y: { range: (_u, _min, max) => [0, Math.max(1, max)] } },
    axes: [axis, { ...axis, size: 48 }],
    series: [
      {},
      ...series.map((s) => {
        const c = paint(probe, s.color);
        return {
          label: s.label,
          stroke: c.solid,
          fill: kind === "bars" ? c.solid : c.faint,
          width: kind === "bars" ? 0 : 2,
          paths: bars,
          points: { show: false },
        };
      }),
    ],
  };
}

export function TimeSeriesChart({ data, kind = "bars", height = 160, label, summary, testId }: Props) {
  const host = useRef<HTMLDivElement>(null);
  const probe = useRef<HTMLSpanElement>(null);
  useEffect(() => {
    const el = host.current;
    if (!el) return;
    let plot: uPlot | undefined;
    let UPlotClass: typeof uPlot | undefined;
    let cancelled = false;
    const draw = () => {
      if (!UPlotClass || cancelled) return;
      plot?.destroy();
      const aligned: uPlot.AlignedData = [data.times, ...data.series.map((s) => s.values)];
      plot = new UPlotClass(options(kind, el.clientWidth || 600, height, data, UPlotClass, probe.current ?? el), aligned, el);
      el.dataset.ready = "true";
    };
    const resize = new ResizeObserver(() => plot?.setSize({ width: el.clientWidth, height }));
    // The palette changes with the theme switch (html[data-theme]) or the system's colour scheme.
    const themed = new MutationObserver(draw);
    const scheme = window.matchMedia("(prefers-color-scheme: dark)");
    void import("uplot").then(({ default: UPlot }) => {
      if (cancelled) return;
      UPlotClass = UPlot;
      draw();
      resize.observe(el);
      themed.observe(document.documentElement, { attributes: true, attributeFilter: ["data-theme"] });
      scheme.addEventListener("change", draw);
    });
    return () => {
      cancelled = true;
      resize.disconnect();
      themed.disconnect();
      scheme.removeEventListener("change", draw);
      plot?.destroy();
      delete el.dataset.ready;
    };
  }, [data, kind, height]);
  return (
    <figure className="chart" aria-label={label} data-testid={testId}>
      <div ref={host} className="chart-canvas" style={{ minHeight: height }} aria-hidden="true" />
      <span ref={probe} hidden />
      <figcaption className="muted chart-summary">{summary}</figcaption>
    </figure>
  );
}
