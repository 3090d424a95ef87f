// GET|POST …/releases/{version}/files/ – a release's files, and a legacy release file upload (sentry-cli 2.x).
import { releaseFilesRoutes } from "@/web/api/release-file-routes";

export const dynamic = "force-dynamic";
export const GET = releaseFilesRoutes.GET;
export const POST = releaseFilesRoutes.POST;
