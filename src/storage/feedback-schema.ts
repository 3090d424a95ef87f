// The user feedback table (migration 0028), as Kysely sees it.
import type { Generated } from "kysely";
export type UserFeedbackTable = {
  id: Generated<number>;
  project_id: number;
  dedupe_key: string;
  source: string;
  feedback_event_id: string | null;
  associated_event_id: string | null;
  issue_id: number | null;
  message: string;
  name: string;
  email: string;
  url: string;
  details: string;
  status: string;
  assignee_user_id: string | null;
  received_at: string;
};

export type FeedbackTables = { user_feedback: UserFeedbackTable };
