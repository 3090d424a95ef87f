// The UTC days ("YYYY-MM-DD") from the one of `fromMs` to the one of `toMs`, both included: the day partitions a
// seeder makes on PostgreSQL before writing rows received over that span.
export function daysBetween(fromMs, toMs) {
  const days = [];
  for (let t = Date.parse(new Date(fromMs).toISOString().slice(0, 10)); t <= toMs; t += 86_400_000) days.push(new Date(t).toISOString().slice(0, 10));
  return days;
}
