// Many events written and most of them deleted: the free space that vacuum tests return.
import { randomBytes } from "node:crypto";
import { sql } from "kysely";
import type { TestCore } from "./core";

export /** 3,000 events of 4 KiB of incompressible data each (about 12 MiB), then all but 100 of them deleted. */
async function fillAndDelete(t: TestCore): Promise<void> {
  const { db, store } = t;
  const owner = await t.accounts.createUser({ email: "o@example.com", password: "password123", name: "O" });
  const org = await store.createOrganization({ slug: "org", name: "Org", ownerUserId: owner.id });
  const p = await store.createProject({ organizationId: org.id, teamId: null, slug: "web", name: "Web", platform: null });
  const now = new Date().toISOString();
  for (let batch = 0; batch < 30; batch++) {
    const rows = Array.from({ length: 100 }, (_, i) => ({
      project_id: p.id,
      event_id: randomBytes(16).toString("hex"),
      type: "error",
      received_at: now,
      timestamp: now,
      platform: "javascript",
      level: "error",
      title: `E ${batch}-${i}`,
      message: "",
      culprit: "",
      release: null,
      environment: null,
      size: 4096,
      data: randomBytes(4096),
      issue_id: null,
    }));
    await db.kysely.insertInto("events").values(rows).execute();
  }
  await sql`delete from events where id > 100`.execute(db.kysely);
}
