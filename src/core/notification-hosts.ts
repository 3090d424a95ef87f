// The instance setting of hosts that notifications may reach although they resolve to private, loopback or
// link-local addresses (notify/http.ts refuses those otherwise). Superusers only: it decides where the server sends
// requests on its users' behalf.
import { ALLOWED_HOSTS_MAX_CHARS, isHostName, parseAllowedHosts } from "../notify/allowed-hosts";
import { actingUser, type CoreContext } from "./context";
import { AppError, forbidden } from "./errors";

function requireSuperuser(ctx: CoreContext): void {
  if (!actingUser(ctx).isSuperuser) throw forbidden("Only superusers can change where notifications may be sent");
}

export async function getNotificationAllowedHosts(ctx: CoreContext): Promise<string[]> {
  requireSuperuser(ctx);
  return parseAllowedHosts(await ctx.store.getAllowedHostsSetting());
}

/** Saves the list (`{ hosts: "a.example, 10.0.0.5" }`: one per line, or separated by commas or spaces); returns it. */
export async function setNotificationAllowedHosts(ctx: CoreContext, input: unknown): Promise<string[]> {
  requireSuperuser(ctx);
  const raw = (input as { hosts?: unknown } | null)?.hosts ?? "";
  const bad = (message: string) => new AppError("bad_request", message, { hosts: [message] });
  if (typeof raw !== "string") throw bad("hosts must be text");
  if (raw.length > ALLOWED_HOSTS_MAX_CHARS) throw bad(`at most ${ALLOWED_HOSTS_MAX_CHARS} characters`);
  const hosts = parseAllowedHosts(raw);
  const wrong = hosts.find((h) => !isHostName(h));
  if (wrong) throw bad(`"${wrong.slice(0, 100)}" is not a host name or address`);
  await ctx.store.setAllowedHostsSetting(hosts.join("\n"));
  return hosts;
}
