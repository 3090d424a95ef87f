"use client";
// A time series drawn with uPlot on the client from data the server sent. uPlot is imported after hydration, so it
// is never part of a page's first-load JavaScript; until it arrives (and without JavaScript) the figure shows the
// totals in text. The canvas is decorative for screen readers: the figure's label and caption carry the numbers.
import { useEffect, useRef } from "react";
import type uPlot from "uplot";
import "uplot/dist/uPlot.min.css";

/** `color`: a CSS colour, or a custom property of the palette ("--accent"), read when the chart is drawn. */
export type ChartSeries = { label: string; values: number[]; color: string };
export type TimeSeries = { /** bucket starts, Unix seconds */ times: number[]; series: ChartSeries[] };

type Props = { data: TimeSeries; kind?: "bars" | "line"; height?: number; label: string; summary: string; testId?: string };

/** `step`: seconds between buckets. A bar starts at its bucket and spans it, so the x scale ends one step after the last. */
function options(kind: "bars" | "line", width: number, height: number, series: ChartSeries[], step: number, UPlot: typeof uPlot): uPlot.Options {
  const styles = getComputedStyle(document.documentElement);
  const muted = styles.getPropertyValue("--muted").trim() || "#777";
  const grid = styles.getPropertyValue("--border").trim() || "#ddd";
  const colorOf = (c: string) => (c.startsWith("--") ? styles.getPropertyValue(c).trim() || muted : c);
  const axis = { stroke: muted, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1 } };
  const bars = kind === "bars" ? UPlot.paths.bars?.({ size: [0.8, 40], align: 1 }) : undefined;
  return {
    width,
    height,
    legend: { show: series.length > 1 },
    cursor: { drag: { x: false, y: false } },
    scales: { x: { time: true, range: (_u, min, max) => [min, kind === "bars" ? max + step : max] }, y: { range: (_u, _min, max) => [0, Math.max(1, max)] } },
    axes: [axis, { ...axis, size: 48 }],
    series: [
      {},
      ...series.map((s) => ({ label: s.label, stroke: colorOf(s.color), fill: kind === "bars" ? colorOf(s.color) : `${colorOf(s.color)}22`, width: kind === "bars" ? 0 : 2, paths: bars, points: { show: false } })),
    ],
  };
}

export function TimeSeriesChart({ data, kind = "bars", height = 160, label, summary, testId }: Props) {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = host.current;
    if (!el) return;
    let plot: uPlot | undefined;
    let cancelled = false;
    const observer = new ResizeObserver(() => plot?.setSize({ width: el.clientWidth, height }));
    void import("uplot").then(({ default: UPlot }) => {
      if (cancelled) return;
      const aligned: uPlot.AlignedData = [data.times, ...data.series.map((s) => s.values)];
      plot = new UPlot(options(kind, el.clientWidth || 600, height, data.series, (data.times[1] ?? 0) - (data.times[0] ?? 0), UPlot), aligned, el);
      el.dataset.ready = "true";
      observer.observe(el);
    });
    return () => {
      cancelled = true;
      observer.disconnect();
      plot?.destroy();
      delete el.dataset.ready;
    };
  }, [data, kind, height]);
  return (
    <figure className="chart" aria-label={label} data-testid={testId}>
      <div ref={host} className="chart-canvas" style={{ minHeight: height }} aria-hidden="true" />
      <figcaption className="muted chart-summary">{summary}</figcaption>
    </figure>
  );
}
