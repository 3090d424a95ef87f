// SDK platforms a project can be set up for; the ids are Sentry's platform names, the docs slugs are Faultline's.
export const PLATFORMS = [
  { id: "javascript", name: "Browser JavaScript", docs: "javascript" },
  { id: "javascript-nextjs", name: "Next.js", docs: "nextjs" },
  { id: "node", name: "Node.js", docs: "node" },
  { id: "python", name: "Python", docs: "python" },
  { id: "ruby", name: "Ruby", docs: "ruby" },
  { id: "go", name: "Go", docs: "go" },
  { id: "php", name: "PHP", docs: "php" },
  { id: "java", name: "Java", docs: "java" },
  { id: "csharp", name: ".NET", docs: "dotnet" },
  { id: "other", name: "Other", docs: "" },
] as const;

export type PlatformId = (typeof PLATFORMS)[number]["id"];

export function docsSlugFor(platform: string | null): string {
  return PLATFORMS.find((p) => p.id === platform)?.docs ?? "";
}
