// "Send a test event": a real error event for a project, taken by the intake as if its SDK had sent it (through the
// in-process entry, ingest/in-process.ts), so the digest turns it into an issue like any other.
import type { SubmitEnvelope } from "../ingest/in-process";
import { assertCan } from "./access";
import type { CoreContext } from "./context";
import { AppError } from "./errors";
import { getProject } from "./projects";

/** The message of every test event; the issue it makes is titled after it. */
export const TEST_EVENT_MESSAGE = "This is a test event sent from Faultline";

/** An envelope with one error event, as an SDK would send it. */
export function testEventEnvelope(eventId: string, platform: string | null, now: Date): Buffer {
  const event = {
    event_id: eventId,
    timestamp: now.getTime() / 1000,
    platform: platform ?? "other",
    level: "error",
    logger: "faultline",
    tags: { test_event: "yes" },
    sdk: { name: "faultline.test-event", version: "1.0.0" },
    exception: {
      values: [
        {
          type: "Error",
          value: TEST_EVENT_MESSAGE,
          mechanism: { type: "generic", handled: true },
          stacktrace: { frames: [{ function: "sendTestEvent", filename: "faultline/test-event", module: "faultline", lineno: 1, in_app: true }] },
        },
      ],
    },
  };
  const payload = Buffer.from(JSON.stringify(event));
  const header = JSON.stringify({ event_id: eventId, sent_at: now.toISOString(), sdk: event.sdk });
  return Buffer.concat([Buffer.from(`${header}\n${JSON.stringify({ type: "event", length: payload.byteLength })}\n`), payload, Buffer.from("\n")]);
}

/**
 * Sends a test event to a project with its first active key, through the intake's checks (key, quotas, limits).
 * Triage rights are needed (viewers only read). Returns the event id.
 */
export async function sendTestEvent(
  ctx: CoreContext,
  orgSlug: string,
  projectSlug: string,
  submit: SubmitEnvelope | null,
  clientIp: string,
): Promise<{ eventId: string }> {
  const { access, project } = await getProject(ctx, orgSlug, projectSlug);
  assertCan(access, "issue:update");
  const key = (await ctx.store.listKeys(project.id)).find((k) => k.isActive);
  if (!key) throw new AppError("bad_request", "The project has no active DSN key");
  if (!submit) throw new AppError("bad_request", "This process takes no events: start Faultline with `faultline start`");
  const eventId = crypto.randomUUID().replace(/-/g, "");
  const answer = await submit({
    body: testEventEnvelope(eventId, project.platform, new Date()),
    clientIp,
    userAgent: "faultline-test-event",
    auth: { projectId: String(project.id), publicKey: key.publicKey },
  });
  if (!answer.ok) throw new AppError(answer.status === 429 ? "rate_limited" : "bad_request", `The intake refused the test event: ${answer.message}`);
  return { eventId: answer.eventId ?? eventId };
}
