// The one Store implementation, over Kysely, for SQLite and PostgreSQL alike.
import type { Db } from "../db";
import type { Store } from "../ports";
import { instanceStore } from "./instance";
import { projectKeyStore } from "./keys";
import { memberStore } from "./members";
import { organizationStore } from "./organizations";
import { projectStore } from "./projects";
import { teamStore } from "./teams";
import { apiTokenStore } from "./tokens";
import { userStore } from "./users";

export function createStore(db: Db): Store {
  const ctx = { db: db.kysely, dialect: db.dialect };
  return {
    ...instanceStore(ctx),
    ...userStore(ctx),
    ...organizationStore(ctx),
    ...memberStore(ctx),
    ...teamStore(ctx),
    ...projectStore(ctx),
    ...projectKeyStore(ctx),
    ...apiTokenStore(ctx),
  };
}
