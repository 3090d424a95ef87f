// A view hierarchy attachment (Sentry's RFC 33, `view-hierarchy.json`, attachment type event.view_hierarchy: the
// screen's views when the event happened, as mobile and game SDKs capture them) read into a tree the event page
// draws: each node's type, identifier and frame, children nested; bounded in nodes and depth
// (ATTACHMENT_LIMITS.maxViewHierarchyNodes, maxViewHierarchyDepth), the rest counted.
import { ATTACHMENT_LIMITS } from "../config/limits";
import { parseJsonObjectOrNull } from "../protocol/json";

export type ViewNode = { type: string; identifier: string | null; frame: string | null; visible: boolean | null; children: ViewNode[] };
export type ViewHierarchy = { renderingSystem: string | null; windows: ViewNode[]; omitted: number };

type Json = Record<string, unknown>;
const text = (v: unknown, max = 200): string | null =>
  typeof v === "string" && v !== "" ? v.slice(0, max) : typeof v === "number" && Number.isFinite(v) ? String(v) : null;
const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? Math.round(v * 100) / 100 : null);

/** The hierarchy in `bytes` (UTF-8 JSON), or null when it is not one. */
export function readViewHierarchy(bytes: Uint8Array): ViewHierarchy | null {
  const root = parseJsonObjectOrNull(bytes);
  if (!root || !Array.isArray(root.windows)) return null;
  let budget = ATTACHMENT_LIMITS.maxViewHierarchyNodes;
  let omitted = 0;
  const count = (v: unknown, depth: number): number => {
    if (depth > ATTACHMENT_LIMITS.maxViewHierarchyDepth * 2 || typeof v !== "object" || v === null) return 0;
    const children = (v as Json).children;
    return 1 + (Array.isArray(children) ? children.reduce((n: number, c) => n + count(c, depth + 1), 0) : 0);
  };
  const node = (v: unknown, depth: number): ViewNode | null => {
    if (typeof v !== "object" || v === null || Array.isArray(v)) return null;
    if (budget <= 0 || depth > ATTACHMENT_LIMITS.maxViewHierarchyDepth) {
      omitted += count(v, depth);
      return null;
    }
    budget--;
    const o = v as Json;
    const [x, y, w, h] = [num(o.x), num(o.y), num(o.width), num(o.height)];
    const children = Array.isArray(o.children) ? o.children.map((c) => node(c, depth + 1)).filter((c): c is ViewNode => c !== null) : [];
    return {
      type: text(o.type) ?? "view",
      identifier: text(o.identifier),
      frame: w !== null && h !== null ? `${x ?? 0},${y ?? 0} ${w}×${h}` : null,
      visible: typeof o.visible === "boolean" ? o.visible : null,
      children,
    };
  };
  const windows = root.windows.map((w) => node(w, 0)).filter((w): w is ViewNode => w !== null);
  return { renderingSystem: text(root.rendering_system), windows, omitted };
}
