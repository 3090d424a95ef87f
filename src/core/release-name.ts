// What sentry-release-parser accepts as a release or environment name, shared by event normalization, sessions and
// the release API: no line breaks, tabs or slashes, and a release is not ".", ".." or "latest".

/** Characters sentry-release-parser refuses in releases and environments. */
export const BAD_NAME_CHARS = /[\n\r\t\f/\\]/;
const BAD_RELEASES = new Set([".", "..", "latest"]);

export const isValidRelease = (v: string): boolean => v.length > 0 && !BAD_NAME_CHARS.test(v) && !BAD_RELEASES.has(v.toLowerCase());
