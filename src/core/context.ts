// What every core service receives: the store and who is acting.
import type { Store, User } from "../storage/ports";

export type Actor = { user: User };
export type CoreContext = { store: Store; actor: Actor };
