// GET|POST /api/0/projects/{org}/{project}/keys/ – DSN keys, with `dsn.public`.
import { createKey, listKeys } from "@/core/keys";
import { apiRoute, readJson } from "@/web/api/handler";
import { serializeKey } from "@/web/api/serializers";

export const dynamic = "force-dynamic";
type P = { org: string; project: string };

export const GET = apiRoute<P>("project:read", async ({ core, params, publicUrl, basePath }) => {
  const { project, keys } = await listKeys(core, params.org, params.project);
  return Response.json(keys.map((k) => serializeKey(k, project, publicUrl, basePath)));
});

export const POST = apiRoute<P>("project:write", async ({ core, params, req, publicUrl, basePath }) => {
  const { project, key } = await createKey(core, params.org, params.project, await readJson(req));
  return Response.json(serializeKey(key, project, publicUrl, basePath), { status: 201 });
});
