// Types of server.mjs, for the TypeScript tests that start a production Faultline the way the benchmarks do.
import type { ChildProcess } from "node:child_process";
export type FaultlineServer = {
  name: string;
  child: ChildProcess & { output: string[] };
  pid: number;
  origin: string;
  dsn: string;
  token: string;
  email: string;
  org: string;
  project: string;
};
export declare function missingBuild(root: string): string[] | null;
export declare function startFlags(root: string): string[];
export declare function startEnv(root: string): Record<string, string>;
export declare function startFaultline(root: string, opts: { port: number; dataDir: string; env?: Record<string, string> }): Promise<FaultlineServer>;
export declare function stopServer(server: FaultlineServer): Promise<{ code: number | string | null }>;
