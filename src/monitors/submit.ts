// A monitor's failure event into the intake, as an SDK of its project would send it: an envelope with the project's
// active key, through the in-process entry (the same checks, quotas and spool as HTTP). A project without an active
// key, or a refusal (a full spool), is logged: the check-in is recorded either way, only its event is not.
import type { SubmitEnvelope } from "../ingest/in-process";
import type { Store } from "../storage/ports";
import type { SubmitFailure } from "./scheduler";

export function intakeSubmitter(store: Store, submitEnvelope: SubmitEnvelope, log: (line: string) => void): SubmitFailure {
  return async (projectId, { eventId, event }) => {
    const publicKey = await store.activePublicKey(projectId);
    if (!publicKey) return log(`faultline: monitor failure ${eventId} of project ${projectId} not sent: the project has no active key`);
    const body = Buffer.from(
      `${JSON.stringify({ event_id: eventId, sent_at: new Date().toISOString() })}\n${JSON.stringify({ type: "event" })}\n${JSON.stringify(event)}\n`,
    );
    const answer = await submitEnvelope({
      body,
      clientIp: "127.0.0.1",
      userAgent: "faultline-monitors",
      auth: { projectId: String(projectId), publicKey, client: "faultline.monitors/1" },
    });
    if (!answer.ok) log(`faultline: monitor failure ${eventId} of project ${projectId} refused by the intake: ${answer.status} ${answer.message}`);
  };
}
