// A store whose reads of the rows a page's render never writes (who the person is, where, with which role, in which
// project and team) are asked once and shared: the render-scoped store of web/render-store.ts. No React here, so the
// node suites test it against a real database.
import type { Store } from "../storage/ports";

export const SHARED_READS = [
  "getOrganizationBySlug",
  "getOrganizationById",
  "getMembership",
  "getProjectById",
  "getProjectBySlug",
  "getTeamById",
  "getUserById",
  "userHasTwoFactor",
] as const satisfies readonly (keyof Store)[];

const shared = new Set<string | symbol>(SHARED_READS);

/** The store with SHARED_READS asked once per arguments (their answers, or failures, are kept); all else as it is. */
export function withSharedReads(store: Store): Store {
  const asked = new Map<string, Promise<unknown>>();
  return new Proxy(store, {
    get(target, key, receiver) {
      const value: unknown = Reflect.get(target, key, receiver);
      if (!shared.has(key) || typeof value !== "function") return value;
      return (...args: unknown[]) => {
        const id = `${String(key)}${JSON.stringify(args)}`;
        let answer = asked.get(id);
        if (!answer) {
          answer = (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
          asked.set(id, answer);
        }
        return answer;
      };
    },
  });
}
