// Browser security reports (CSP, Expect-CT) turned into events, as Relay's security_report.rs does: the report
// becomes an event with a `csp` / `expectct` interface, a message such as "Blocked 'script' from 'evil.example'",
// the document URI as the request URL, and tags for the directive and the blocked host.
import { INGEST_LIMITS } from "../config/limits";
import { ProtocolError } from "./errors";
import { jsonDepthExceeds, parseJsonObject } from "./json";

type Report = Record<string, unknown>;

const DIRECTIVE_NAMES: Record<string, string> = {
  "child-src": "child",
  "connect-src": "connect",
  "font-src": "font",
  "form-action": "form-action",
  "frame-ancestors": "frame-ancestors",
  "frame-src": "frame",
  "img-src": "image",
  "manifest-src": "manifest",
  "media-src": "media",
  "object-src": "object",
  "script-src": "script",
  "script-src-elem": "script",
  "script-src-attr": "script",
  "style-src": "style",
  "style-src-elem": "style",
  "style-src-attr": "style",
  "worker-src": "worker",
  "default-src": "default",
};

const str = (v: unknown): string | undefined => (typeof v === "string" && v !== "" ? v : undefined);

/** The host of a blocked URI, or the keyword ("inline", "eval", "self") browsers put there. */
function blockedOrigin(uri: string | undefined): string {
  if (!uri) return "self";
  try {
    return new URL(uri).host || uri;
  } catch {
    return uri;
  }
}

function cspEvent(raw: Report): Record<string, unknown> {
  const documentUri = str(raw["document-uri"]) ?? str(raw.documentURL);
  const blockedUri = str(raw["blocked-uri"]) ?? str(raw.blockedURL);
  const effective = (
    str(raw["effective-directive"]) ??
    str(raw.effectiveDirective) ??
    str(raw["violated-directive"])?.split(" ")[0] ??
    "default-src"
  ).toLowerCase();
  const name = Object.hasOwn(DIRECTIVE_NAMES, effective) ? DIRECTIVE_NAMES[effective]! : effective;
  let message: string;
  if (blockedUri === "inline" || (blockedUri === "self" && effective.startsWith("script"))) message = `Blocked unsafe inline '${name}'`;
  else if (blockedUri === "eval") message = `Blocked unsafe eval() '${name}'`;
  else message = `Blocked '${name}' from '${blockedOrigin(blockedUri)}'`;
  return {
    logentry: { formatted: message },
    level: "error",
    culprit: `${effective}`,
    request: documentUri ? { url: documentUri, headers: raw.referrer ? [["Referer", raw.referrer]] : undefined } : undefined,
    tags: [
      ["effective-directive", effective],
      ["blocked-uri", blockedUri ?? "self"],
    ],
    csp: {
      effective_directive: effective,
      blocked_uri: blockedUri,
      document_uri: documentUri,
      original_policy: str(raw["original-policy"]) ?? str(raw.originalPolicy),
      referrer: str(raw.referrer),
      status_code: raw["status-code"] ?? raw.statusCode,
      violated_directive: str(raw["violated-directive"]) ?? effective,
      source_file: str(raw["source-file"]) ?? str(raw.sourceFile),
      line_number: raw["line-number"] ?? raw.lineNumber,
      column_number: raw["column-number"] ?? raw.columnNumber,
      script_sample: str(raw["script-sample"]) ?? str(raw.sample),
      disposition: str(raw.disposition),
    },
  };
}

function expectCtEvent(raw: Report): Record<string, unknown> {
  const host = str(raw.hostname) ?? "unknown host";
  return {
    logentry: { formatted: `Expect-CT failed for '${host}'` },
    level: "error",
    culprit: host,
    tags: [["hostname", host]],
    expectct: raw,
  };
}

/**
 * The events of one security-report body: `{"csp-report": …}`, `{"expect-ct-report": …}`, or a Reporting API list
 * (`[{type: "csp-violation", body: …}]`). Each event gets the release and environment from the query, if any.
 */
export function securityReportEvents(body: Uint8Array, extra: { release?: string | null; environment?: string | null }): Record<string, unknown>[] {
  const text = Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString("utf8").trim();
  let reports: Report[];
  if (text.startsWith("[")) {
    if (jsonDepthExceeds(text, INGEST_LIMITS.maxJsonDepth))
      throw new ProtocolError("invalid_json", `the report is nested deeper than ${INGEST_LIMITS.maxJsonDepth} levels`);
    let list: unknown;
    try {
      list = JSON.parse(text);
    } catch {
      throw new ProtocolError("invalid_json", "the report is not valid JSON");
    }
    if (!Array.isArray(list)) throw new ProtocolError("invalid_report", "not a security report");
    reports = list
      .filter((r): r is Report => typeof r === "object" && r !== null && (r as Report).type === "csp-violation" && typeof (r as Report).body === "object")
      .map((r) => ({ "csp-report": r.body }));
  } else reports = [parseJsonObject(body, "report")];
  const events: Record<string, unknown>[] = [];
  for (const report of reports) {
    const csp = report["csp-report"];
    const ct = report["expect-ct-report"];
    let event: Record<string, unknown>;
    if (csp && typeof csp === "object") event = cspEvent(csp as Report);
    else if (ct && typeof ct === "object") event = expectCtEvent(ct as Report);
    else throw new ProtocolError("invalid_report", "not a CSP or Expect-CT report");
    if (extra.release) event.release = extra.release;
    if (extra.environment) event.environment = extra.environment;
    events.push({ platform: "other", ...event });
  }
  if (events.length === 0) throw new ProtocolError("invalid_report", "no CSP violation in the report list");
  return events;
}
