// The one layout of every mail Faultline sends (account mail, alerts, summaries): a heading, paragraphs, one link back
// into Faultline, and a footer saying why the person got the mail and how to stop it. It gives the subject, a plain
// text part and an HTML part; the HTML is escaped, styled inline and loads nothing from elsewhere (no images, fonts or
// remote CSS), so it reads the same in every client and tells no one it was opened.
//
//   const mail = renderLayout("de", {
//     heading: "New issue in backend: TypeError",
//     paragraphs: ["Cannot read properties of undefined", "First seen 12:03 in production"],
//     link: { url: appUrl(config.publicUrl, basePath, "/de/orgs/acme/issues/42"), label: "Open the issue" },
//     footer: { why: "You get this e-mail because you are on the team of backend.", stop: "Turn it off under Account → Notifications.", link: { url: …, label: "Notification settings" } },
//   });
//   await mailer.send({ to, ...mail });
//
// Everything passed is untrusted text (event messages, names): it is escaped in HTML, cut to MAIL_LIMITS, and the
// subject (the heading, unless `subject` is given) is made one header line.
import { MAIL_LIMITS } from "../config/limits";
import { headerText } from "./address";
import { mailLocale, mailTranslator } from "./messages";

export type MailLink = { url: string; label: string };

export type LayoutInput = {
  /** The subject line; the heading when absent. */
  subject?: string;
  heading: string;
  paragraphs: string[];
  /** The link back into Faultline: an absolute http(s) URL (see appUrl). */
  link: MailLink;
  /** Why the person got this mail, and how to stop it (optionally with a link to the setting). */
  footer: { why: string; stop: string; link?: MailLink };
};

export type RenderedMail = { subject: string; text: string; html: string };

/** An absolute link into Faultline: FAULTLINE_URL, the base path, then the path (which starts with "/"). */
export function appUrl(publicUrl: string, basePath: string, path: string): string {
  return `${publicUrl.replace(/\/+$/, "")}${basePath.replace(/\/+$/, "")}${path.startsWith("/") ? path : `/${path}`}`;
}

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

/** Text of a paragraph: no NUL or other control characters but line breaks and tabs, cut to its limit. */
function clean(s: unknown, max: number): string {
  const text = (typeof s === "string" ? s : String(s ?? "")).replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, "").replace(/\r\n?/g, "\n");
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function checkedUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new TypeError("renderLayout: a link must be an absolute http(s) URL");
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") throw new TypeError("renderLayout: a link must be an absolute http(s) URL");
  return parsed.toString();
}

const subjectLine = (s: string) => {
  const line = headerText(s) || "Faultline";
  return line.length > MAIL_LIMITS.subjectMaxChars ? `${line.slice(0, MAIL_LIMITS.subjectMaxChars - 1)}…` : line;
};

const STYLE = {
  body: "margin:0;padding:0;background:#f4f5f7;",
  wrap: "max-width:600px;margin:0 auto;padding:24px 16px;font-family:-apple-system,Segoe UI,Helvetica,Arial,sans-serif;color:#1f2328;font-size:15px;line-height:1.5;",
  card: "background:#ffffff;border:1px solid #d8dce1;border-radius:8px;padding:24px;",
  h1: "margin:0 0 16px;font-size:20px;line-height:1.3;",
  p: "margin:0 0 12px;white-space:pre-wrap;word-break:break-word;",
  button: "display:inline-block;background:#1f6feb;color:#ffffff;text-decoration:none;padding:10px 18px;border-radius:6px;font-weight:600;",
  raw: "margin:16px 0 0;font-size:13px;color:#57606a;word-break:break-all;",
  footer: "margin:16px 0 0;font-size:13px;color:#57606a;",
};

/** Renders one mail in `locale` (en or de; anything else is English). Throws TypeError for a link that is not http(s). */
export function renderLayout(locale: string, input: LayoutInput): RenderedMail {
  const lang = mailLocale(locale);
  const t = mailTranslator(lang);
  const heading = clean(input.heading, MAIL_LIMITS.subjectMaxChars * 2);
  const paragraphs = (Array.isArray(input.paragraphs) ? input.paragraphs : [])
    .slice(0, MAIL_LIMITS.paragraphsMax)
    .map((p) => clean(p, MAIL_LIMITS.paragraphMaxChars))
    .filter((p) => p.trim() !== "");
  const link = { url: checkedUrl(input.link.url), label: clean(input.link.label, 200) };
  const why = clean(input.footer.why, MAIL_LIMITS.paragraphMaxChars);
  const stop = clean(input.footer.stop, MAIL_LIMITS.paragraphMaxChars);
  const stopLink = input.footer.link ? { url: checkedUrl(input.footer.link.url), label: clean(input.footer.link.label, 200) } : undefined;

  const text = [
    heading,
    "",
    ...paragraphs.flatMap((p) => [p, ""]),
    `${link.label}: ${link.url}`,
    "",
    "-- ",
    why,
    stopLink ? `${stop} ${stopLink.label}: ${stopLink.url}` : stop,
    t("mail.layout.signature"),
    "",
  ].join("\n");

  const html = `<!DOCTYPE html>
<html lang="${lang}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(heading)}</title></head>
<body style="${STYLE.body}">
<div style="${STYLE.wrap}">
<div style="${STYLE.card}">
<h1 style="${STYLE.h1}">${escapeHtml(heading)}</h1>
${paragraphs.map((p) => `<p style="${STYLE.p}">${escapeHtml(p)}</p>`).join("\n")}
<p style="margin:20px 0 0;"><a href="${escapeHtml(link.url)}" style="${STYLE.button}">${escapeHtml(link.label)}</a></p>
<p style="${STYLE.raw}">${escapeHtml(t("mail.layout.linkHint"))}<br>${escapeHtml(link.url)}</p>
</div>
<p style="${STYLE.footer}">${escapeHtml(why)}<br>${escapeHtml(stop)}${stopLink ? ` <a href="${escapeHtml(stopLink.url)}" style="color:#57606a;">${escapeHtml(stopLink.label)}</a>` : ""}</p>
<p style="${STYLE.footer}">${escapeHtml(t("mail.layout.signature"))}</p>
</div>
</body>
</html>
`;
  return { subject: subjectLine(input.subject ?? heading), text, html };
}
