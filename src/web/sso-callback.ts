// The provider's callback handed to better-auth's handler in-process (app/api/auth/callback/[id]/route.ts), with the
// headers it needs: the session and state cookies, the client address (its rate limiter), the user agent. Its URL is
// rebuilt from the public URL, never from the request's Host. Only the configured provider's id is accepted.
import "server-only";
import { authPath, CLIENT_IP_HEADER } from "../auth/create-auth";
import { SSO_PROVIDER_ID } from "../core/sso";
import { SSO_LIMITS } from "../config/limits";
import { currentServices } from "../runtime/services";
import { toErrorResponse } from "./api/errors";
import { readCappedBytes } from "./api/handler";

const detail = (status: number, message: string) => Response.json({ detail: message }, { status });

export async function forwardToAuth(request: Request, providerId: string): Promise<Response> {
  const { auth, config, basePath, sso } = await currentServices();
  if (!sso || providerId !== SSO_PROVIDER_ID) return detail(404, "Single sign-on is not configured");
  const incoming = new URL(request.url);
  if (
    incoming.search.length >
    SSO_LIMITS.maxCodeLength + SSO_LIMITS.maxStateLength + 4 * SSO_LIMITS.maxShortFieldLength + SSO_LIMITS.maxErrorDescriptionLength
  ) {
    return detail(400, "The callback's query is too long");
  }
  const url = `${config.publicUrl}${authPath(basePath)}/callback/${SSO_PROVIDER_ID}${incoming.search}`;
  const headers = new Headers();
  for (const name of [CLIENT_IP_HEADER, "user-agent", "cookie", "content-type"]) {
    const v = request.headers.get(name);
    if (v) headers.set(name, v);
  }
  let body: string | undefined;
  if (request.method === "POST") {
    headers.set("origin", new URL(config.publicUrl).origin);
    // Read within its limit, and its pace (a 413 or 408 that closes the connection): the whole body was read into
    // memory before its size was looked at, a gigabyte as readily as a form.
    try {
      body = (await readCappedBytes(request, SSO_LIMITS.maxCallbackFormBytes)).toString("utf8");
    } catch (error) {
      return toErrorResponse(error);
    }
  }
  try {
    return await auth.handler(new Request(url, { method: request.method, headers, body }));
  } catch (error) {
    // Never a 500 for what the browser brought: whatever better-auth could not read is a bad callback.
    console.error("single sign-on callback failed:", error instanceof Error ? error.name : "error");
    return detail(400, "The sign-in could not be completed; start again");
  }
}
