// The SDK setup guides ("Send events to Faultline"), in English and German: shared code samples, translated text.
import { CODE } from "./code";
import { DE } from "./de";
import { EN } from "./en";
import { type DocsContent, type DocsLocale, GUIDE_SLUGS, type Guide, type GuideSlug, type GuideText } from "./types";

export { DOCS_LOCALES, type DocsLocale, DSN_PLACEHOLDER, GUIDE_SLUGS, type Guide, type GuideStep, type DocsContent } from "./types";

function buildGuides(texts: Record<GuideSlug, GuideText>): Guide[] {
  return GUIDE_SLUGS.map((slug) => {
    const text = texts[slug];
    const code = CODE[slug];
    if (code.length !== text.steps.length) {
      throw new Error(`docs: guide "${slug}" has ${text.steps.length} steps but ${code.length} code entries`);
    }
    return {
      slug,
      title: text.title,
      summary: text.summary,
      steps: text.steps.map((step, i) => {
        const sample = code[i];
        return sample ? { ...step, code: sample } : { ...step };
      }),
    };
  });
}

export const DOCS: Record<DocsLocale, DocsContent> = {
  en: {
    title: "Send events to Faultline",
    intro:
      "Faultline speaks Sentry's protocol, so any official Sentry SDK works unchanged: the only difference is that its DSN points at Faultline. You find a project's DSN on its Setup page or under Client keys (DSN) in the project's settings. Pick your platform below.",
    nav: "Guides",
    guides: buildGuides(EN),
    dsnFilled: "The DSN of your project is filled in below.",
    dsnMissing: "Replace PUBLIC_KEY@… with your project's DSN, shown on the project's Setup page.",
    backToApp: "Back to Faultline",
  },
  de: {
    title: "Ereignisse an Faultline senden",
    intro:
      "Faultline spricht das Protokoll von Sentry, deshalb funktioniert jedes offizielle Sentry-SDK unverändert: Nur der DSN zeigt auf Faultline. Den DSN eines Projekts findest du auf seiner Seite Einrichtung oder in den Projekteinstellungen unter Client-Schlüssel (DSN). Wähle unten deine Plattform.",
    nav: "Anleitungen",
    guides: buildGuides(DE),
    dsnFilled: "Der DSN deines Projekts ist unten bereits eingetragen.",
    dsnMissing: "Ersetze PUBLIC_KEY@… durch den DSN deines Projekts; du findest ihn auf der Seite Einrichtung des Projekts.",
    backToApp: "Zurück zu Faultline",
  },
};

export function getGuide(locale: DocsLocale, slug: string): Guide | undefined {
  return DOCS[locale]?.guides.find((g) => g.slug === slug);
}
