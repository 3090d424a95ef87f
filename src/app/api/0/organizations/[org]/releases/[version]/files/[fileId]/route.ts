// DELETE …/releases/{version}/files/{id}/ – a legacy release file.
import { releaseFileRoutes } from "@/web/api/release-file-routes";

export const dynamic = "force-dynamic";
export const DELETE = releaseFileRoutes.DELETE;
