// Which query parameters a route read. The `Link` header's URLs carry a list's parameters to its next page, but only
// those the route understood: copying every one echoed whatever a client appended, twice (the previous and next
// links), and parameters of a request line near its 16 KiB bound made a header over 30 KB, which Node's own fetch
// refuses (UND_ERR_HEADERS_OVERFLOW) and a proxy's default buffers reject (502). A parameter read is one the route
// asked for by name; a route that walks all of them keeps all of them.

const reads = new WeakMap<URLSearchParams, Set<string> | "all">();

/** Records, from now on, the names the route asks `url`'s query for (get, getAll, has) and whether it walks them all. */
export function trackParameterReads(url: URL): void {
  const params = url.searchParams;
  const names = new Set<string>();
  reads.set(params, names);
  const byName = (method: "get" | "getAll" | "has") => {
    const original = params[method].bind(params) as (name: string, value?: string) => unknown;
    return (name: string, value?: string) => {
      if (reads.get(params) !== "all") names.add(name);
      return value === undefined ? original(name) : original(name, value);
    };
  };
  params.get = byName("get") as URLSearchParams["get"];
  params.getAll = byName("getAll") as URLSearchParams["getAll"];
  params.has = byName("has") as URLSearchParams["has"];
  for (const method of ["forEach", "entries", "keys", "values", "toString", Symbol.iterator] as const) {
    const original = (params[method] as (...args: unknown[]) => unknown).bind(params);
    Object.defineProperty(params, method, {
      value: (...args: unknown[]) => {
        reads.set(params, "all");
        return original(...args);
      },
    });
  }
}

/** The route's query parameters worth carrying to another page, in their order, each value kept; never `cursor`. */
export function parametersRead(url: URL): [string, string][] {
  const read = reads.get(url.searchParams);
  const out: [string, string][] = [];
  // The prototype's own walk: reading for the header is not the route's reading.
  URLSearchParams.prototype.forEach.call(url.searchParams, (value, name) => {
    if (name !== "cursor" && (read === undefined || read === "all" || read.has(name))) out.push([name, value]);
  });
  return out;
}
