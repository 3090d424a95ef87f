// Check-ins through Sentry's web API (the legacy POST /organizations/{org}/monitors/{slug}/checkins/ and PUT
// …/checkins/{id}/ that older sentry-cli and scripts with an auth token use): the check-in is made into a check_in
// envelope item for the monitor's project and handed to the intake with the project's active key, exactly as an SDK
// would send it, so the digest applies it as any other. Sending one is triage-like (issue:update: members, not
// viewers); `latest` names the environment's newest in-progress check-in.
import type { SubmitEnvelope } from "../ingest/in-process";
import { MONITOR_LIMITS } from "../config/limits";
import { requireOrg, requireText } from "./access";
import type { CoreContext } from "./context";
import { AppError, notFound } from "./errors";

const STATUSES = new Set(["ok", "error", "in_progress"]);
const GUID = /^[0-9a-f]{32}$/;

export async function sendApiCheckIn(
  ctx: CoreContext,
  orgSlug: string,
  slug: string,
  raw: Record<string, unknown>,
  submit: SubmitEnvelope | null,
  clientIp: string,
  checkInId?: string,
): Promise<{ id: string }> {
  const { org } = await requireOrg(ctx, orgSlug, "issue:update");
  const monitor = await ctx.store.monitorInOrganization(org.id, requireText(slug, "Monitor"));
  if (!monitor) throw notFound("Monitor");
  const status = raw.status;
  if (typeof status !== "string" || !STATUSES.has(status))
    throw new AppError("bad_request", "status must be in_progress, ok or error", { status: ["Invalid"] }, true);
  const duration = raw.duration;
  if (
    duration !== undefined &&
    duration !== null &&
    !(typeof duration === "number" && Number.isFinite(duration) && duration >= 0 && duration <= MONITOR_LIMITS.durationMaxMs)
  )
    throw new AppError("bad_request", "duration must be milliseconds", { duration: ["Invalid"] }, true);
  const environment = raw.environment ?? "production";
  if (typeof environment !== "string" || environment.length > MONITOR_LIMITS.environmentMaxLength)
    throw new AppError("bad_request", "environment must be a name of at most 64 characters", { environment: ["Invalid"] }, true);
  let id =
    checkInId === undefined
      ? crypto.randomUUID().replace(/-/g, "")
      : checkInId === "latest"
        ? "00000000000000000000000000000000"
        : checkInId.replace(/-/g, "").toLowerCase();
  if (!GUID.test(id)) throw notFound("Check-in");
  const key = (await ctx.store.listKeys(monitor.projectId)).find((k) => k.isActive);
  if (!key) throw new AppError("bad_request", "The monitor's project has no active DSN key");
  if (!submit) throw new AppError("bad_request", "This process takes no check-ins: start Faultline with `faultline start`");
  const checkIn = { check_in_id: id, monitor_slug: monitor.slug, status, environment, ...(typeof duration === "number" && { duration: duration / 1000 }) };
  const body = Buffer.from(`{}\n${JSON.stringify({ type: "check_in" })}\n${JSON.stringify(checkIn)}\n`);
  const answer = await submit({
    body,
    clientIp,
    userAgent: "faultline-api",
    auth: { projectId: String(monitor.projectId), publicKey: key.publicKey, client: "sentry.api/checkins" },
  });
  if (!answer.ok) throw new AppError(answer.status === 429 ? "rate_limited" : "bad_request", `The intake refused the check-in: ${answer.message}`);
  if (checkInId === "latest") id = "latest";
  return { id };
}
