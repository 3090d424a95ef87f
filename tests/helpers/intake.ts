// A real intake for tests: Faultline's HTTP listener (without Next.js) on an ephemeral port, the spool and the
// digest worker thread in a fresh data dir, over a real SQLite file (or the given database); one organization with
// two projects. With `digest: "external"` no thread starts: the server follows the position `faultline worker` saves.
import { mkdtempSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { newKeyPair } from "../../src/core/key-pair";
import { followExternalDigest } from "../../src/digest/external";
import { startDigestWorker } from "../../src/digest/spawn";
import { type IntakeOptions, openIntake, spoolDir } from "../../src/ingest";
import type { SpoolWriter } from "../../src/ingest/spool";
import { SpoolBacklog } from "../../src/ingest/spool-backlog";
import { metrics } from "../../src/observability/metrics";
import { createHttpServer } from "../../src/server/http-server";
import { createListener } from "../../src/server/listener";
import type { OpenDbOptions } from "../../src/storage/db";
import type { SubmitEnvelope } from "../../src/ingest/in-process";
import type { ProjectKey, StoredEvent, User } from "../../src/storage/ports";
import { type TestCore, testCore, uniq } from "./core";

export type TestProject = { id: number; slug: string; key: ProjectKey; dsn: string };
export type TestIntake = {
  origin: string;
  dataDir: string;
  spool: SpoolWriter;
  /** The spool position the server last heard of (from its thread, or read from the database). */
  digested: () => number;
  core: TestCore;
  /** The organization's owner. */
  owner: User;
  org: string;
  /** The intake's in-process entry (ingest/in-process.ts). */
  submitEnvelope: SubmitEnvelope;
  projects: [TestProject, TestProject];
  /** The intake URL of an endpoint of the first project (or `project`). */
  url: (endpoint: string, project?: TestProject, query?: string) => string;
  waitForEvent: (project: TestProject, eventId: string, timeoutMs?: number) => Promise<StoredEvent>;
  /** Waits until the digest has caught up with everything spooled so far. */
  settle: () => Promise<void>;
  close: () => Promise<void>;
};

/**
 * digestEntry, digestBudgetMs: the digest thread's entry module and time budget per record (supervisor.ts), for tests
 * of its supervision (tests/helpers/digest-test-worker.ts).
 */
export type TestIntakeOptions = Pick<IntakeOptions, "pressureLimits"> & {
  digest?: "inline" | "external";
  db?: OpenDbOptions;
  /** The digest thread's way to the same database, when it differs (through a proxy the test can cut). */
  digestDb?: OpenDbOptions;
  digestEntry?: URL;
  digestBudgetMs?: number;
  /** FAULTLINE_DIGEST_THREADS: 2 prepares batches in a second thread (digest/prepare-thread.ts). */
  digestThreads?: 1 | 2;
  /** An empty directory for the data (a small file system, say); a fresh one under the system's temp dir by default. */
  dataDir?: string;
  /** FAULTLINE_METRICS_TOKEN: /metrics answers with it, as `faultline start` wires it (spool backlog, digest figures). */
  metricsToken?: string;
  /** Hears the digest's log lines (default: standard error). */
  log?: (line: string) => void;
};

export async function startTestIntake({
  digest: mode = "inline",
  db,
  digestDb,
  digestEntry,
  digestBudgetMs,
  digestThreads = 1,
  dataDir: givenDataDir,
  metricsToken,
  log = (line: string) => console.error(line),
  ...options
}: TestIntakeOptions = {}): Promise<TestIntake> {
  const dataDir = givenDataDir ?? mkdtempSync(path.join(tmpdir(), "faultline-intake-"));
  // The file `faultline worker` opens for this data dir when no DATABASE_URL is set.
  const dbOptions: OpenDbOptions = db ?? { dialect: "sqlite", file: path.join(dataDir, "faultline.sqlite3") };
  const core = await testCore(dbOptions);
  const owner = await core.accounts.createUser({ email: `${uniq("owner")}@example.com`, password: "password123", name: "Owner" });
  const org = await core.store.createOrganization({ slug: uniq("org"), name: "Org", ownerUserId: owner.id });
  const intake = openIntake({ dataDir, durability: "normal", lookupKey: (k) => core.store.getIntakeKey(k), log: () => undefined, ...options });
  let digested = 0;
  const backlog = metricsToken ? new SpoolBacklog(intake.spool, spoolDir(dataDir), 0) : null;
  if (backlog) metrics().watchBacklog(() => backlog.figures());
  const onPosition = (p: number) => {
    digested = p;
    intake.spool.digested(p);
    backlog?.digested(p);
  };
  const digest =
    mode === "inline"
      ? startDigestWorker({ spoolDir: spoolDir(dataDir), db: digestDb ?? dbOptions, prepareThread: digestThreads === 2 }, onPosition, log, {
          entry: digestEntry,
          budgetMs: digestBudgetMs,
          onBatch: metricsToken ? (b) => metrics().digestBatch(b) : undefined,
        })
      : followExternalDigest(core.store, intake.spool.id, onPosition, log, 100);
  const server = createHttpServer(
    createListener({
      config: { trustProxy: false, publicUrl: "http://localhost:9000" },
      basePath: "",
      intake,
      next: null,
      metricsToken: metricsToken ? () => metricsToken : null,
    }),
  );
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const makeProject = async (): Promise<TestProject> => {
    const slug = uniq("proj");
    const p = await core.store.createProject({ organizationId: org.id, teamId: null, slug, name: slug, platform: null });
    const key = await core.store.createKey({ projectId: p.id, label: "Default", ...newKeyPair() });
    return { id: p.id, slug, key, dsn: `http://${key.publicKey}@127.0.0.1:${(server.address() as AddressInfo).port}/${p.id}` };
  };
  const projects: [TestProject, TestProject] = [await makeProject(), await makeProject()];
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  return {
    origin,
    dataDir,
    spool: intake.spool,
    digested: () => digested,
    core,
    owner,
    org: org.slug,
    submitEnvelope: intake.submitEnvelope,
    projects,
    url: (endpoint, project = projects[0], query = "") => `${origin}/api/${project.id}/${endpoint}/${query}`,
    async waitForEvent(project, eventId, timeoutMs = 10_000) {
      for (const start = Date.now(); Date.now() - start < timeoutMs; await sleep(25)) {
        const e = await core.store.getEvent(project.id, eventId);
        if (e) return e;
      }
      throw new Error(`event ${eventId} did not reach project ${project.slug} within ${timeoutMs} ms`);
    },
    async settle() {
      // Wait for a commit, then for the digest to pass the spool's last row. The bound only guards against a hang:
      // a digest thread started from source compiles first, which takes many seconds on a machine this loaded.
      await sleep(20);
      const { SpoolReader } = await import("../../src/ingest/spool");
      const reader = SpoolReader.open(spoolDir(dataDir));
      try {
        const last = reader.read(0, 1_000_000).pop()?.id ?? 0;
        for (const start = Date.now(); digested < last && Date.now() - start < 30_000; ) await sleep(20);
        if (digested < last) throw new Error(`digest stuck at ${digested} < ${last}`);
      } finally {
        reader.close();
      }
    },
    async close() {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
      await digest.stop();
      intake.close();
      await core.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
