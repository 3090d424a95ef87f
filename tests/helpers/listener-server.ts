// Faultline's listener on a server of its own (loopback, any port), with a real intake and `next` in place of Next.js:
// for tests of what the listener does before Next.js sees a request.
import { mkdtempSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { openIntake } from "../../src/ingest";
import { createHttpServer } from "../../src/server/http-server";
import { createListener, type NextHandler } from "../../src/server/listener";
import { testCore } from "./core";

export async function startListenerServer(next: NextHandler, options: Pick<Parameters<typeof createListener>[0], "actionBodyPace" | "actionIds"> = {}) {
  const core = await testCore();
  const dataDir = mkdtempSync(path.join(tmpdir(), "faultline-listener-"));
  const intake = openIntake({ dataDir, durability: "normal", lookupKey: (k) => core.store.getIntakeKey(k), log: () => undefined });
  const listener = createListener({ config: { trustProxy: false, publicUrl: "http://localhost:9000" }, basePath: "", intake, next, ...options });
  const server = createHttpServer(listener);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    port: (server.address() as AddressInfo).port,
    async close() {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
      intake.close();
      rmSync(dataDir, { recursive: true, force: true });
      await core.close();
    },
  };
}
