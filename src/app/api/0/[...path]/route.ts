// Any /api/0/ path no route serves: a JSON 404, never the HTML 404 page (API clients cannot parse HTML).
import { errorResponse } from "@/web/api/errors";

export const dynamic = "force-dynamic";

const notFound = () => errorResponse(404, "The requested resource does not exist");
export { notFound as GET, notFound as POST, notFound as PUT, notFound as DELETE, notFound as PATCH };
