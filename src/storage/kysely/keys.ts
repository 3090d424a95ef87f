import type { ProjectKey, ProjectKeyStore } from "../ports";
import { type Ctx, dbBool, nowIso, quotasColumn, rateLimitColumns, toBool, toQuotas, toRateLimit, uniquely } from "./shared";

type KeyRow = {
  id: number;
  project_id: number;
  label: string;
  public_key: string;
  secret_key: string;
  is_active: boolean | number;
  created_at: string;
  rate_limit_count: number | null;
  rate_limit_window: number | null;
  quotas: string | null;
};
const toKey = (r: KeyRow): ProjectKey => ({
  id: r.id,
  projectId: r.project_id,
  label: r.label,
  publicKey: r.public_key,
  secretKey: r.secret_key,
  isActive: toBool(r.is_active),
  createdAt: r.created_at,
  rateLimit: toRateLimit(r.rate_limit_count, r.rate_limit_window),
  quotas: toQuotas(r.quotas),
});
const columns = [
  "id",
  "project_id",
  "label",
  "public_key",
  "secret_key",
  "is_active",
  "created_at",
  "rate_limit_count",
  "rate_limit_window",
  "quotas",
] as const;

export function projectKeyStore({ db, dialect }: Ctx): ProjectKeyStore {
  const one = async (projectId: number, keyId: number) => {
    const r = await db.selectFrom("project_keys").select(columns).where("project_id", "=", projectId).where("id", "=", keyId).executeTakeFirst();
    return r ? toKey(r) : null;
  };
  return {
    async createKey({ projectId, label, publicKey, secretKey }) {
      const r = await uniquely("key", () =>
        db
          .insertInto("project_keys")
          .values({ project_id: projectId, label, public_key: publicKey, secret_key: secretKey, is_active: dbBool(dialect, true), created_at: nowIso() })
          .returning(columns)
          .executeTakeFirstOrThrow(),
      );
      return toKey(r);
    },
    async listKeys(projectId) {
      return (await db.selectFrom("project_keys").select(columns).where("project_id", "=", projectId).orderBy("id").execute()).map(toKey);
    },
    getKey: one,
    async getKeyByPublicKey(publicKey) {
      const r = await db.selectFrom("project_keys").select(columns).where("public_key", "=", publicKey).executeTakeFirst();
      return r ? toKey(r) : null;
    },
    async updateKey(projectId, keyId, patch) {
      const set = Object.fromEntries(
        Object.entries({
          label: patch.label,
          is_active: patch.isActive === undefined ? undefined : dbBool(dialect, patch.isActive),
          ...rateLimitColumns(patch.rateLimit),
          ...quotasColumn(patch.quotas),
        }).filter(([, v]) => v !== undefined),
      );
      if (Object.keys(set).length > 0) {
        await db.updateTable("project_keys").set(set).where("project_id", "=", projectId).where("id", "=", keyId).execute();
      }
      return one(projectId, keyId);
    },
    async deleteKey(projectId, keyId) {
      const r = await db.deleteFrom("project_keys").where("project_id", "=", projectId).where("id", "=", keyId).executeTakeFirst();
      return Number(r.numDeletedRows) > 0;
    },
  };
}
