// GraphQL variables (relay-pii processor.rs `scrub_graphql`, applied when data scrubbing is on): for a request whose
// `api_target` is "graphql", every variable in `request.data.variables` becomes "[Filtered]", and so does every key
// of the same name in the response context's `data.data`; without variables, the response data is removed.

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function scrubData(keys: Set<string>, data: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(data)) {
    if (isObject(value)) scrubData(keys, value);
    else if (keys.has(key)) data[key] = "[Filtered]";
  }
}

export function scrubGraphql(event: Record<string, unknown>): void {
  const request = event.request;
  if (!isObject(request) || !isObject(request.data)) return;
  if (typeof request.api_target !== "string" || request.api_target.toLowerCase() !== "graphql") return;
  const keys = new Set<string>();
  const variables = request.data.variables;
  if (isObject(variables)) {
    for (const key of Object.keys(variables)) {
      keys.add(key);
      variables[key] = "[Filtered]";
    }
  }
  const contexts = event.contexts;
  if (!isObject(contexts)) return;
  const response = Object.values(contexts).find((c) => isObject(c) && c.type === "response") ?? contexts.response;
  if (!isObject(response) || !isObject(response.data) || !isObject(response.data.data)) return;
  if (keys.size > 0) scrubData(keys, response.data.data);
  else delete response.data.data;
}
