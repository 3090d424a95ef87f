// Runs the digest worker from TypeScript source (tests run Faultline through tsx, not from the build):
// a worker thread does not inherit tsx's loader, so it registers it before importing the entry.
import { register } from "tsx/esm/api";

register();
await import("./worker.ts");
