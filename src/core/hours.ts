// Outcome counters are kept per hour. An hour is written as the ISO instant it starts at, so hours sort as text.

/** The hour an instant (epoch milliseconds or an ISO string) falls in: "2026-11-23T10:00:00Z". */
export function hourOf(at: number | string): string {
  const d = new Date(at);
  d.setUTCMinutes(0, 0, 0);
  return d.toISOString().replace(".000Z", "Z");
}
