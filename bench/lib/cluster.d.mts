// Types of cluster.mjs, for tests/cluster.
import type { ChildProcess } from "node:child_process";
export type Node = { name: string; port: number; origin: string; env: Record<string, string>; child: ChildProcess; output: string[] };
export type Envelope = { eventId: string; body: string; headers: Record<string, string> };
export type Cluster = {
  nodes: Node[];
  proxy: { port: number; origin: string; stop: () => Promise<unknown> };
  token: string;
  email: string;
  password: string;
  org: string;
  project: string;
  projectId: number;
  publicKey: string;
  dsn: string;
  nodeEnv: (i: number) => Record<string, string>;
  api: (method: string, path: string, body?: unknown) => Promise<Record<string, unknown>>;
  restart: (i: number, env?: Record<string, string>) => Promise<Node>;
  stop: () => Promise<void>;
};
export declare const NGINX: string | null;
export declare const NGINX_FAIL_TIMEOUT_S: number;
export declare function freePort(): Promise<number>;
export declare function startCluster(
  root: string,
  opts: { workDir: string; databaseUrl: string; count?: number; env?: Record<string, string> },
): Promise<Cluster>;
export declare function stopNode(node: Node, opts?: { kill?: boolean }): Promise<number | string | null>;
export declare function errorEnvelope(publicKey: string, opts?: { eventId?: string; type?: string; value?: string; user?: string | null }): Envelope;
export declare function sendEnvelope(origin: string, projectId: number, envelope: Envelope): Promise<number>;
export declare function nginxRuns(): boolean;
