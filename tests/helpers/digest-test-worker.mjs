// Runs tests/helpers/digest-test-worker.ts from TypeScript source: a worker thread does not inherit tsx's loader.
import { register } from "tsx/esm/api";

register();
await import("./digest-test-worker.ts");
