// PUT|DELETE /api/0/projects/{org}/{project}/keys/{public_key}/ – rename, enable or disable, revoke.
import { deleteKey, updateKey } from "@/core/keys";
import { apiRoute, readJson } from "@/web/api/handler";
import { serializeKey } from "@/web/api/serializers";

export const dynamic = "force-dynamic";
type P = { org: string; project: string; keyId: string };

export const PUT = apiRoute<P>("project:write", async ({ core, params, req, publicUrl, basePath }) => {
  const { project, key } = await updateKey(core, params.org, params.project, params.keyId, await readJson(req));
  return Response.json(serializeKey(key, project, publicUrl, basePath));
});

export const DELETE = apiRoute<P>("project:admin", async ({ core, params }) => {
  await deleteKey(core, params.org, params.project, params.keyId);
  return new Response(null, { status: 204 });
});
