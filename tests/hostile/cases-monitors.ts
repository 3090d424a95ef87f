// Cron monitors (issue 19): the HTTP check-in endpoint (Relay's /api/{project_id}/cron/{slug}/{key}/) and the
// monitors API given bad slugs, NUL, huge numbers, megabyte strings, bad crontabs and time zones, broken JSON and
// wrong methods. Each must get a 2xx (a check-in the digest then drops with its reason) or a 4xx, never a 5xx.
import type { HostileCase, Target } from "./cases";

const json = { "content-type": "application/json" };

export function monitorCases(t: Target): HostileCase[] {
  const cron = (slug: string, query: string) => `/api/${t.projectId}/cron/${slug}/${t.publicKey}/${query}`;
  const checkIns: [string, string, string][] = [
    ["a NUL in the slug", encodeURIComponent("job\u0000x"), "?status=ok"],
    ["a slug of 600 characters", "s".repeat(600), "?status=ok"],
    ["a slug of invalid percent-encoding", "%E0%A4%A", "?status=ok"],
    ["a slug of dots", "..", "?status=ok"],
    ["no status", "job", ""],
    ["an unknown status", "job", "?status=missed"],
    ["a status of 1 MB", "job", `?status=${"x".repeat(1 << 20)}`],
    ["a huge duration", "job", "?status=ok&duration=1e308"],
    ["an infinite duration", "job", "?status=ok&duration=Infinity"],
    ["a negative duration", "job", "?status=ok&duration=-1"],
    ["a NUL environment", "job", `?status=ok&environment=${encodeURIComponent("prod\u0000")}`],
    ["an environment of 64 KB", "job", `?status=ok&environment=${"e".repeat(64 * 1024)}`],
    ["a bad check-in id", "job", "?status=ok&check_in_id=not-a-uuid"],
    ["repeated statuses", "job", "?status=ok&status=error"],
  ];
  const bodies: [string, string][] = [
    ["not JSON", "{oops"],
    ["an array", "[1,2,3]"],
    ["a string", '"ok"'],
    ["a bad crontab", JSON.stringify({ status: "ok", monitor_config: { schedule: { type: "crontab", value: "61 * * * *" } } })],
    ["a crontab of 64 KB", JSON.stringify({ status: "ok", monitor_config: { schedule: { type: "crontab", value: "1,".repeat(32 * 1024) } } })],
    ["a bad time zone", JSON.stringify({ status: "ok", monitor_config: { schedule: { type: "crontab", value: "0 * * * *" }, timezone: "Mars/Olympus" } })],
    ["a huge interval", JSON.stringify({ status: "ok", monitor_config: { schedule: { type: "interval", value: 1e308, unit: "day" } } })],
    [
      "huge thresholds",
      JSON.stringify({
        status: "ok",
        monitor_config: {
          schedule: { type: "crontab", value: "0 * * * *" },
          failure_issue_threshold: 2 ** 53,
          recovery_threshold: -1,
          checkin_margin: 1e20,
          max_runtime: 1.5,
        },
      }),
    ],
    ["deep nesting", `{"status":"ok","monitor_config":${"[".repeat(5000)}${"]".repeat(5000)}}`],
    [
      "NUL everywhere",
      JSON.stringify({
        status: "ok\u0000",
        check_in_id: "\u0000",
        environment: "\u0000",
        monitor_config: { schedule: { type: "crontab\u0000", value: "\u0000" }, timezone: "\u0000" },
      }),
    ],
  ];
  const auth = { authorization: `Bearer ${t.token}` };
  const api = `/api/0/organizations/${t.org}/monitors/`;
  const monitorBodies: [string, unknown][] = [
    ["no project", { name: "x", config: { schedule_type: "crontab", schedule: "0 * * * *" } }],
    ["a bad crontab", { project: t.project, name: "x", config: { schedule_type: "crontab", schedule: "* * *" } }],
    ["a bad time zone", { project: t.project, name: "x", config: { schedule_type: "crontab", schedule: "0 * * * *", timezone: "Etc/Nowhere\u0000" } }],
    ["a huge interval", { project: t.project, name: "x", config: { schedule_type: "interval", schedule: [1e308, "day"] } }],
    ["a slug with NUL", { project: t.project, name: "x", slug: "a\u0000b", config: { schedule_type: "crontab", schedule: "0 * * * *" } }],
    ["a name of 64 KB", { project: t.project, name: "n".repeat(64 * 1024), config: { schedule_type: "crontab", schedule: "0 * * * *" } }],
    ["a config that is a string", { project: t.project, name: "x", config: "0 * * * *" }],
  ];
  return [
    ...checkIns.map(([name, slug, query]) => ({ name: `cron check-in: ${name}`, method: "GET", path: cron(slug, query) })),
    ...bodies.map(([name, body]) => ({ name: `cron check-in body: ${name}`, path: cron("job", ""), headers: json, body: Buffer.from(body) })),
    { name: "cron check-in: a body of 2 MB", path: cron("job", ""), headers: json, body: Buffer.alloc(2 << 20, 0x20) },
    { name: "cron check-in: an unknown key", method: "GET", path: `/api/${t.projectId}/cron/job/${"0".repeat(32)}/?status=ok` },
    { name: "cron check-in: PUT", method: "PUT", path: cron("job", "?status=ok") },
    ...monitorBodies.map(([name, body]) => ({
      name: `monitors API: ${name}`,
      path: api,
      headers: { ...auth, ...json },
      body: Buffer.from(JSON.stringify(body)),
    })),
    { name: "monitors API: a slug of 1 KB", method: "GET", path: `${api}${"m".repeat(1024)}/`, headers: auth },
    {
      name: "monitors API: a check-in of an unknown monitor",
      path: `${api}no-such-monitor/checkins/`,
      headers: { ...auth, ...json },
      body: Buffer.from('{"status":"ok"}'),
    },
    {
      name: "monitors API: a check-in id that is no id",
      method: "PUT",
      path: `${api}no-such-monitor/checkins/%00/`,
      headers: { ...auth, ...json },
      body: Buffer.from('{"status":"ok"}'),
    },
  ];
}
