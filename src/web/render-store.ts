// The store a page's render reads through. Every entry point authorizes itself, so a page's layouts and the components
// that load their own data (an issue's user reports, its attachments) each check the person's access again: one issue
// page asked for the same organization seven times and the same membership six. Within one server render those rows
// do not change, so those reads (web/shared-reads.ts) are asked once per render and shared: React's cache, whose scope
// is one request's render. Server actions run outside a render, and change what they read: they get the store itself.
import "server-only";
import { cache } from "react";
import { getServices } from "../runtime/services";
import type { Store } from "../storage/ports";
import { withSharedReads } from "./shared-reads";

const renderScoped = cache(() => withSharedReads(getServices().store));

/** Within a render, the store with its shared reads; elsewhere (a server action), the store itself. */
export function renderStore(): Store {
  const scoped = renderScoped();
  // Outside a render React's cache keeps nothing: each call makes another, and nothing may be shared.
  return scoped === renderScoped() ? scoped : getServices().store;
}
