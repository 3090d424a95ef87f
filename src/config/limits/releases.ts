// Releases and what sentry-cli uploads to them.
// Each limit with its unit and the reason for its value; config/limits.ts gathers the files.

export const RELEASE_LIMITS = {
  /** characters; the longest release version (Sentry's DB_VERSION_LENGTH). */
  versionLength: 250,
  /** characters; the longest environment name a session may carry (Sentry's environment names). */
  environmentLength: 64,
  /** characters; the longest session id or distinct id kept (UUIDs and user ids are far shorter). */
  sessionIdLength: 128,
  /**
   * days; a session started longer ago is refused, and the state of its updates is forgotten after it (Relay's
   * max_session_secs_in_past: "updates are accepted for 5 days").
   */
  sessionMaxAgeDays: 5,
  /** seconds; a session starting further ahead of its arrival is refused (Relay's max_secs_in_future). */
  sessionMaxFutureSeconds: 60,
  /** entries; refs or commits set-commits may attach to one release. */
  maxCommits: 1000,
} as const;

/** sentry-cli's uploads: chunk upload, artifact bundle assembly and legacy release files (sentry-protocol.md §6). */
export const UPLOAD_LIMITS = {
  /**
   * bytes (8 MiB); one chunk, as Sentry's SENTRY_CHUNK_UPLOAD_BLOB_SIZE. A power of two, which sentry-cli up to 2.39.1
   * requires; each chunk is held in memory once while it is checked and stored.
   */
  chunkSize: 8 * 1024 * 1024,
  /** chunks; the most one chunk-upload request carries (Sentry's MAX_CHUNKS_PER_REQUEST). */
  chunksPerRequest: 64,
  /**
   * bytes (32 MiB); one chunk-upload request body as sent (gzip parts compressed), Sentry's MAX_REQUEST_SIZE. The body
   * is read as a stream, one part at a time, so this bounds the transfer, not what the request holds in memory.
   */
  maxRequestSize: 32 * 1024 * 1024,
  /**
   * bytes (8 MiB + 64 KiB); one multipart part as sent: a chunk, plus room for what gzip adds to data it cannot
   * compress (zlib's deflateBound: under 3 KB on 8 MiB). A request holds at most one part and one inflated chunk at a
   * time: each is checked and stored before the next part is read.
   */
  maxPartSize: 8 * 1024 * 1024 + 64 * 1024,
  /**
   * bytes (64 MiB); all chunks of one chunk-upload request together, after inflating: one bundle's worth
   * (maxBundleSize), as sentry-cli sends the missing chunks of one bundle at a time. Checked before each part is
   * inflated, so 64 gzip parts of 8 MiB of zeros (511 KB on the wire) stop after 64 MiB of inflating, not 512.
   */
  maxRequestChunkBytes: 64 * 1024 * 1024,
  /**
   * milliseconds; an upload whose body stops arriving for this long is answered 408. sentry-cli writes each body in
   * one go, so a pause this long is a stalled or hostile client, and the request would otherwise hold its part
   * and its socket for Node's 5-minute request timeout.
   */
  bodyIdleTimeoutMs: 30_000,
  /** form fields; the text fields a legacy release-file upload may carry (name, dist and one `header` each). */
  maxReleaseFileFields: 64,
  /** bytes (64 KiB); one text field of a legacy release-file upload (a URL as name, a header "Key:Value"). */
  maxReleaseFileFieldSize: 64 * 1024,
  /** requests; how many chunk uploads sentry-cli runs at once (Sentry's MAX_CONCURRENCY 8, lower for a 2-core host). */
  concurrency: 4,
  /**
   * bytes (64 MiB); one artifact bundle (a ZIP of minified files and source maps), advertised as maxFileSize. A bundle
   * is assembled in memory under the server's 384 MiB heap limit, so this is far below Sentry's 2 GiB; a large app's
   * bundle of a few thousand files compresses to well under it.
   */
  maxBundleSize: 64 * 1024 * 1024,
  /** bytes (32 MiB); one file inside a bundle, or one legacy release file, uncompressed (a large app's source map). */
  maxFileSize: 32 * 1024 * 1024,
  /** bytes (256 MiB); all files of one bundle, uncompressed: a ZIP bomb stops here. */
  maxBundleUnzippedSize: 256 * 1024 * 1024,
  /** files; the most one bundle may hold (sentry-cli refused more than 20,000 release files on the legacy path). */
  maxBundleFiles: 20_000,
  /** chunks; the most one assemble request may name (maxBundleSize / chunkSize, with room for smaller chunks). */
  maxAssembleChunks: 1024,
  /**
   * requests; assemble calls waiting while a bundle is assembled. Bundles are assembled one at a time: one may take
   * maxBundleSize of chunks and maxBundleUnzippedSize of files in memory, from a request of a few hundred bytes (a
   * ZIP of zeros), so calls arriving together must not add up. sentry-cli assembles one bundle per upload; past this
   * line the call gets 429.
   */
  maxWaitingAssemblies: 16,
  /**
   * bytes (1 GiB); chunks an organization may hold unassembled at once. Beyond it chunk uploads get 429 until
   * assembly or cleanup frees some, so an upload that never assembles cannot fill the disk.
   */
  maxPendingChunkBytes: 1024 * 1024 * 1024,
  /** hours; chunks not assembled this long after they arrived are deleted (sentry-cli assembles within minutes). */
  chunkMaxAgeHours: 24,
  /** days; a bundle is deleted this long after its last upload or use, as Sentry keeps artifact bundles 90 days. */
  bundleRetentionDays: 90,
  /** files; the most a release's page and its files list show. */
  listedFiles: 1000,
} as const;
