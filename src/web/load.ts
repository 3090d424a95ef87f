import "server-only";
import { notFound } from "next/navigation";
import { isAppError } from "../core/errors";

/** Runs a core read for a page; not_found (including another organization's objects) renders the 404 page. */
export async function loadOrNotFound<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (err) {
    if (isAppError(err) && (err.code === "not_found" || err.code === "forbidden")) notFound();
    throw err;
  }
}
