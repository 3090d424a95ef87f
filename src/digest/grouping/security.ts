// Strategies for browser security reports: CSP violations, HPKP, Expect-CT and Expect-Staple
// (getsentry/sentry src/sentry/grouping/strategies/security.py; the CSP blocked-URI normalization
// and local script violation follow src/sentry/interfaces/security.py `Csp`).
import { component, update } from "./component";
import type { VariantMap } from "./context";
import { obj, str, type Obj } from "./event";

const LOCAL = "'self'";

export type HostnameReport = "hpkp" | "expect-staple" | "expect-ct";

const INTERFACE_KEY: Record<HostnameReport, string> = {
  hpkp: "hpkp",
  "expect-staple": "expectstaple",
  "expect-ct": "expectct",
};

export function hostnameReportVariants(event: Obj, id: HostnameReport): VariantMap | null {
  const report = obj(event[INTERFACE_KEY[id]]);
  if (!report) return null;
  const hostname = str(report.hostname);
  const values = [component("salt", { values: [id], hint: "a static salt" }), component("hostname", hostname !== null ? { values: [hostname] } : {})];
  return new Map([["default", component(id, { values })]]);
}

/** Sentry's `Csp._normalize_uri`: hosts for http(s), `scheme:` for bare schemes, `'self'` for local. */
export function normalizeCspUri(value: string): string {
  if (value === "" || value === LOCAL || value === "self") return LOCAL;
  let scheme = value;
  let host = "";
  const colon = value.indexOf(":");
  if (colon >= 0) {
    scheme = value.slice(0, colon).toLowerCase();
    const rest = value.slice(colon + 1);
    host = rest.startsWith("//") ? (rest.slice(2).split(/[/?#]/)[0] ?? "") : "";
    if (scheme === "http" || scheme === "https") return host;
  }
  return host ? `${scheme}://${host}` : `${scheme}:`;
}

export function cspVariants(event: Obj): VariantMap | null {
  const csp = obj(event.csp);
  if (!csp) return null;
  const violated = str(csp.violated_directive);
  const effective = str(csp.effective_directive) ?? violated?.split(" ")[0] ?? null;
  const blocked = normalizeCspUri(str(csp.blocked_uri) ?? "");
  let localType: string | null = null;
  if (violated && effective === "script-src" && blocked === LOCAL) {
    if (violated.includes("'unsafe-inline'")) localType = "unsafe-inline";
    else if (violated.includes("'unsafe-eval'")) localType = "unsafe-eval";
  }
  const violation = component("violation");
  const uri = component("uri");
  if (localType !== null) {
    update(violation, { values: [`'${localType}'`] });
    update(uri, { contributes: false, hint: "violation takes precedence", values: [blocked] });
  } else {
    update(violation, { contributes: false, hint: "not a local script violation" });
    update(uri, { values: [blocked] });
  }
  const salt = component("salt", effective !== null ? { values: [effective], hint: "a static salt" } : {});
  return new Map([["default", component("csp", { values: [salt, violation, uri] })]]);
}
