// Types of page-timing.mjs, for tests/cluster (signing in as a browser does, for a session cookie).
export declare function signInCookie(origin: string, basePath: string, email: string, password: string): Promise<string>;
