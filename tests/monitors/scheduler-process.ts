// A scheduler pass in a process of its own, as a second Faultline process on the same database would run it:
// `node --import tsx scheduler-process.ts <db options JSON> <now ms>`. It prints the pass's result and the failure
// events it decided (the parent hands them to its intake, as this process's own intake would).
import { runMonitorPass, type FailureEvent } from "../../src/monitors/scheduler";
import { type OpenDbOptions, openDb } from "../../src/storage/db";
import { createStore } from "../../src/storage/kysely";

const [options, now] = process.argv.slice(2);
const db = openDb(JSON.parse(options!) as OpenDbOptions);
const failures: { projectId: number; failure: FailureEvent }[] = [];
const result = await runMonitorPass(createStore(db), async (projectId, failure) => void failures.push({ projectId, failure }), Number(now));
await db.close();
process.stdout.write(JSON.stringify({ result, failures }));
