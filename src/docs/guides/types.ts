// Types and constants shared by the SDK guides (src/docs/guides/*).
export const DOCS_LOCALES = ["en", "de"] as const;
export type DocsLocale = (typeof DOCS_LOCALES)[number];

/** Text a guide shows where the project's DSN goes; the docs page replaces it when opened from a project. */
export const DSN_PLACEHOLDER = "https://PUBLIC_KEY@faultline.example.com/PROJECT_ID";

export type GuideStep = { title: string; body: string; code?: { lang: string; source: string } };
export type Guide = { slug: string; title: string; summary: string; steps: GuideStep[] };
export type DocsContent = { title: string; intro: string; nav: string; guides: Guide[]; dsnFilled: string; dsnMissing: string; backToApp: string };

export const GUIDE_SLUGS = ["javascript", "nextjs", "node", "python", "ruby", "go", "php", "java", "dotnet"] as const;
export type GuideSlug = (typeof GUIDE_SLUGS)[number];

export type Code = { lang: string; source: string };
export type StepText = { title: string; body: string };
export type GuideText = { title: string; summary: string; steps: StepText[] };
