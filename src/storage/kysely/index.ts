// The one Store implementation, over Kysely, for SQLite and PostgreSQL alike.
import type { Db } from "../db";
import type { Store } from "../ports";
import { alertRuleStore } from "./alert-rules";
import { artifactStore } from "./artifacts";
import { deadLetterStore } from "./dead-letters";
import { digestStore } from "./digest";
import { issueStore } from "./issues";
import { issueTriageStore } from "./issue-triage";
import { issueStreamStore } from "./issue-stream";
import { eventStore } from "./events";
import { instanceStore } from "./instance";
import { intakeStore, organizationQuotaStore } from "./intake";
import { notificationSettingsStore } from "./notification-settings";
import { invitationStore } from "./invitations";
import { projectKeyStore } from "./keys";
import { memberStore } from "./members";
import { notificationStore } from "./notifications";
import { metricAlertStore } from "./metric-alerts";
import { organizationStore } from "./organizations";
import { orgTokenStore } from "./org-tokens";
import { outcomeStore } from "./outcomes";
import { projectStore } from "./projects";
import { releaseDetailStore } from "./release-details";
import { releaseStore } from "./releases";
import { retentionStore } from "./retention";
import { spanStore } from "./spans";
import { teamStore } from "./teams";
import { apiTokenStore } from "./tokens";
import { userStore } from "./users";
import { userDataStore } from "./user-data";
import { scrubbingSettingsStore } from "./data-scrubbing";
import { clusterStore } from "./cluster";
import { monitorStore } from "./monitors";
import { auditStore } from "./audit";
import { twoFactorStore } from "./two-factor";
import { ssoStore } from "./sso";
import { signInSessionStore } from "./sign-in-sessions";
import { feedbackStore } from "./feedback";
import { attachmentStore, chunkBlobs, removingBlobs } from "./attachments";
import { fileBlobs } from "../attachment-files";
import { partitionStore } from "./partitions";
import { logStore } from "./logs";

export function createStore(db: Db): Store {
  const ctx = { db: db.kysely, dialect: db.dialect };
  // Attachment blobs: files beside the SQLite database, chunks in PostgreSQL (shared by every node).
  const attachmentBlobs = db.attachmentsDir ? fileBlobs(db.attachmentsDir, db.syncAttachments === true) : chunkBlobs(ctx);
  const projects = projectStore(ctx);
  const organizations = organizationStore(ctx);
  return {
    attachmentBlobs,
    ...attachmentStore(ctx, attachmentBlobs),
    ...instanceStore(ctx),
    ...userStore(ctx),
    ...organizations,
    ...memberStore(ctx),
    ...teamStore(ctx),
    ...projects,
    ...projectKeyStore(ctx),
    ...apiTokenStore(ctx),
    ...intakeStore(ctx),
    ...organizationQuotaStore(ctx),
    ...digestStore(ctx),
    ...issueStore(ctx),
    ...issueTriageStore(ctx),
    ...issueStreamStore(ctx),
    ...eventStore(ctx),
    ...outcomeStore(ctx),
    ...releaseStore(ctx),
    ...retentionStore(ctx),
    ...releaseDetailStore(ctx),
    ...invitationStore(ctx),
    ...orgTokenStore(ctx),
    ...artifactStore(ctx),
    ...spanStore(ctx),
    ...deadLetterStore(ctx),
    ...notificationSettingsStore(ctx),
    ...notificationStore(ctx),
    ...alertRuleStore(ctx),
    ...metricAlertStore(ctx),
    ...userDataStore(ctx, attachmentBlobs),
    ...clusterStore(ctx),
    ...scrubbingSettingsStore(ctx),
    ...monitorStore(ctx),
    ...feedbackStore(ctx),
    ...removingBlobs(ctx, attachmentBlobs, { deleteProject: projects.deleteProject, deleteOrganization: organizations.deleteOrganization }),
    ...logStore(ctx),
    ...auditStore(ctx),
    ...partitionStore(ctx),
    ...twoFactorStore(ctx),
    ...ssoStore(ctx),
    ...signInSessionStore(ctx),
  };
}
