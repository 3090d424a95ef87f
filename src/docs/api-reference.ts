// The web API reference shown in the public docs: every /api/0 route Faultline serves, in both languages.
import type { DocsLocale } from "./guides";

type Endpoint = { method: string; path: string; en: string; de: string };

export const API_ENDPOINTS: Endpoint[] = [
  { method: "GET", path: "/api/0/", en: "Who the token belongs to (used by sentry-cli info). Answers without credentials too.", de: "Wem das Token gehört (für sentry-cli info). Antwortet auch ohne Anmeldedaten." },
  { method: "GET", path: "/api/0/organizations/", en: "Organizations you belong to.", de: "Organisationen, in denen du Mitglied bist." },
  { method: "POST", path: "/api/0/organizations/", en: "Create an organization: {name, slug?}.", de: "Organisation anlegen: {name, slug?}." },
  { method: "GET, PUT, DELETE", path: "/api/0/organizations/{org}/", en: "Read, rename or delete an organization.", de: "Organisation lesen, umbenennen oder löschen." },
  { method: "GET, POST", path: "/api/0/organizations/{org}/teams/", en: "List teams; create one: {slug} or {name}.", de: "Teams auflisten; eines anlegen: {slug} oder {name}." },
  { method: "GET", path: "/api/0/organizations/{org}/projects/", en: "Projects of an organization.", de: "Projekte einer Organisation." },
  { method: "POST", path: "/api/0/teams/{org}/{team}/projects/", en: "Create a project owned by a team: {name, slug?, platform?}.", de: "Projekt eines Teams anlegen: {name, slug?, platform?}." },
  { method: "GET", path: "/api/0/projects/", en: "Every project you can see.", de: "Alle Projekte, die du sehen kannst." },
  { method: "GET, PUT, DELETE", path: "/api/0/projects/{org}/{project}/", en: "Read, change or delete a project.", de: "Projekt lesen, ändern oder löschen." },
  { method: "GET, POST", path: "/api/0/projects/{org}/{project}/keys/", en: "DSN keys, with dsn.public; create one: {name?}.", de: "DSN-Schlüssel mit dsn.public; einen anlegen: {name?}." },
  { method: "PUT, DELETE", path: "/api/0/projects/{org}/{project}/keys/{key}/", en: "Rename, enable or disable ({name?, isActive?}) or revoke a key.", de: "Schlüssel umbenennen, aktivieren oder deaktivieren ({name?, isActive?}) oder widerrufen." },
];

export const API_TEXT: Record<DocsLocale, { title: string; intro: string; method: string; path: string; what: string; nav: string }> = {
  en: {
    title: "Web API",
    nav: "Web API",
    intro: "Faultline answers Sentry's web API paths with Sentry's field names. Authenticate with a personal API token (Account → API tokens, or `faultline createtoken`) as `Authorization: Bearer <token>`. Errors are JSON {\"detail\": …}; lists are paginated with the Link header and its cursors.",
    method: "Method",
    path: "Path",
    what: "What it does",
  },
  de: {
    title: "Web-API",
    nav: "Web-API",
    intro: "Faultline beantwortet die Pfade von Sentrys Web-API mit Sentrys Feldnamen. Melde dich mit einem persönlichen API-Token an (Konto → API-Tokens oder `faultline createtoken`), als `Authorization: Bearer <token>`. Fehler kommen als JSON {\"detail\": …}; Listen werden über den Link-Header mit Cursorn geblättert.",
    method: "Methode",
    path: "Pfad",
    what: "Wozu",
  },
};
