// The personal notification settings' tables (migration 0023), as Kysely sees them. Booleans are 0/1 on SQLite.
type Bool = boolean | number;

export type UserNotificationSettingsTable = { user_id: string; locale: string | null; time_zone: string | null; workflow: Bool; updated_at: string };
export type ProjectNotificationSettingsTable = { user_id: string; project_id: number; email: Bool };
export type OrganizationNotificationSettingsTable = { user_id: string; organization_id: number; weekly_summary: Bool };
export type IssueSubscriptionsTable = { user_id: string; issue_id: number; is_active: Bool; reason: string; created_at: string };

export type NotificationSettingsTables = {
  user_notification_settings: UserNotificationSettingsTable;
  project_notification_settings: ProjectNotificationSettingsTable;
  organization_notification_settings: OrganizationNotificationSettingsTable;
  issue_subscriptions: IssueSubscriptionsTable;
};
