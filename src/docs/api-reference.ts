// The web API reference shown in the public docs: every /api/0 route Faultline serves, in both languages.
import type { DocsLocale } from "./guides";

type Endpoint = { method: string; path: string; en: string; de: string };

export const API_ENDPOINTS: Endpoint[] = [
  {
    method: "GET",
    path: "/api/0/",
    en: "Who the token belongs to (used by sentry-cli info): the user and their scopes, or for an organization token no user and the scope org:ci. Answers without credentials too.",
    de: "Wem das Token gehört (für sentry-cli info): der Benutzer und seine Scopes, bei einem Organisations-Token kein Benutzer und der Scope org:ci. Antwortet auch ohne Anmeldedaten.",
  },
  {
    method: "GET",
    path: "/api/0/organizations/",
    en: "Organizations you belong to (an organization token: its own).",
    de: "Organisationen, in denen du Mitglied bist (ein Organisations-Token: seine eigene).",
  },
  { method: "POST", path: "/api/0/organizations/", en: "Create an organization: {name, slug?}.", de: "Organisation anlegen: {name, slug?}." },
  {
    method: "GET, PUT, DELETE",
    path: "/api/0/organizations/{org}/",
    en: "Read, rename or delete an organization. Data scrubbing every project must follow, with Sentry's fields: dataScrubber, dataScrubberDefaults, scrubIPAddresses (true requires it of every project), sensitiveFields, safeFields (added to every project's), relayPiiConfig (Relay's rules as JSON text, applied before the project's); a relayPiiConfig Relay would refuse is a 400. quotas {attachment|error|transaction|…: {window, count} | null}: the organization's own quotas, shared by its projects (attachments in bytes; 429 and attachment:organization in X-Sentry-Rate-Limits once spent).",
    de: "Organisation lesen, umbenennen oder löschen. Datenbereinigung, die jedes Projekt befolgen muss, mit den Feldern von Sentry: dataScrubber, dataScrubberDefaults, scrubIPAddresses (true verlangt es von jedem Projekt), sensitiveFields, safeFields (zu denen jedes Projekts hinzugefügt), relayPiiConfig (Relays Regeln als JSON-Text, vor denen des Projekts angewandt); eine relayPiiConfig, die Relay ablehnen würde, ergibt 400. quotas {attachment|error|transaction|…: {window, count} | null}: eigene Kontingente der Organisation, die sich ihre Projekte teilen (Anhänge in Bytes; 429 und attachment:organization in X-Sentry-Rate-Limits, sobald aufgebraucht).",
  },
  {
    method: "GET, POST",
    path: "/api/0/organizations/{org}/teams/",
    en: "List teams; create one: {slug} or {name}.",
    de: "Teams auflisten; eines anlegen: {slug} oder {name}.",
  },
  { method: "GET", path: "/api/0/organizations/{org}/projects/", en: "Projects of an organization.", de: "Projekte einer Organisation." },
  {
    method: "POST",
    path: "/api/0/teams/{org}/{team}/projects/",
    en: "Create a project owned by a team: {name, slug?, platform?}.",
    de: "Projekt eines Teams anlegen: {name, slug?, platform?}.",
  },
  { method: "GET", path: "/api/0/projects/", en: "Every project you can see.", de: "Alle Projekte, die du sehen kannst." },
  {
    method: "GET, PUT, DELETE",
    path: "/api/0/projects/{org}/{project}/",
    en: "Read, change or delete a project. Data scrubbing with Sentry's fields: dataScrubber, dataScrubberDefaults (on by default), sensitiveFields, safeFields (lists of keys), scrubIPAddresses, relayPiiConfig (Relay's advanced rules as JSON text, or null; one Relay would refuse is a 400). Faultline's retentionDays: days its events are kept, shorter than the instance's FAULTLINE_RETENTION_DAYS (null: the instance's). Sentry's attachmentsRole: the least role (owner, admin, member, viewer) that may download the project's attachments; member by default.",
    de: "Projekt lesen, ändern oder löschen. Datenbereinigung mit den Feldern von Sentry: dataScrubber, dataScrubberDefaults (standardmäßig an), sensitiveFields, safeFields (Listen von Schlüsseln), scrubIPAddresses, relayPiiConfig (Relays erweiterte Regeln als JSON-Text oder null; eine, die Relay ablehnen würde, ergibt 400). Faultline-eigen retentionDays: Tage, die seine Ereignisse aufbewahrt werden, kürzer als FAULTLINE_RETENTION_DAYS der Instanz (null: die der Instanz). Sentrys attachmentsRole: die schwächste Rolle (owner, admin, member, viewer), die die Anhänge des Projekts herunterladen darf; standardmäßig member.",
  },
  {
    method: "GET, POST",
    path: "/api/0/projects/{org}/{project}/keys/",
    en: "DSN keys, with dsn.public; create one: {name?}.",
    de: "DSN-Schlüssel mit dsn.public; einen anlegen: {name?}.",
  },
  {
    method: "PUT, DELETE",
    path: "/api/0/projects/{org}/{project}/keys/{key}/",
    en: "Rename, enable or disable ({name?, isActive?}), set quotas or revoke a key. rateLimit {window, count} limits errors (as in Sentry); quotas {transaction|span|attachment|session|feedback|monitor|internal: {window, count} | null} the other categories (attachments in bytes, internal: client reports). Projects take the same two fields.",
    de: "Schlüssel umbenennen, aktivieren oder deaktivieren ({name?, isActive?}), Kontingente setzen oder widerrufen. rateLimit {window, count} begrenzt Fehler (wie in Sentry); quotas {transaction|span|attachment|session|feedback|monitor|internal: {window, count} | null} die übrigen Kategorien (Anhänge in Bytes, internal: Client-Berichte). Projekte nehmen dieselben zwei Felder.",
  },
  {
    method: "GET, POST",
    path: "/api/0/projects/{org}/{project}/rules/",
    en: 'Issue alert rules, in Sentry\'s shape; create one: {name, environment?, actionMatch: all|any, filterMatch?: all|any|none, frequency? (minutes, 5–43,200), conditions, filters?, actions} with Sentry\'s ids (FirstSeenEventCondition, RegressionEventCondition, ReappearedEventCondition, EventFrequencyCondition and EventUniqueUserFrequencyCondition {value, interval, firstTimeOnly?}; LevelFilter, TaggedEventFilter, LatestReleaseFilter, AgeComparisonFilter, IssueOccurrencesFilter, AssignedToFilter, IssueCategoryFilter {value: "1" errors, "4" monitor failures, "6" user feedback}; NotifyEmailAction, NotifyEventServiceAction {url}, Slack, Discord and Teams actions {webhookUrl}). Webhook URLs to loopback, private or link-local addresses are refused.',
    de: 'Issue-Alarmregeln in Sentrys Form; eine anlegen: {name, environment?, actionMatch: all|any, filterMatch?: all|any|none, frequency? (Minuten, 5–43.200), conditions, filters?, actions} mit Sentrys IDs (FirstSeenEventCondition, RegressionEventCondition, ReappearedEventCondition, EventFrequencyCondition und EventUniqueUserFrequencyCondition {value, interval, firstTimeOnly?}; LevelFilter, TaggedEventFilter, LatestReleaseFilter, AgeComparisonFilter, IssueOccurrencesFilter, AssignedToFilter, IssueCategoryFilter {value: "1" Fehler, "4" Monitor-Ausfälle, "6" Nutzer-Feedback}; NotifyEmailAction, NotifyEventServiceAction {url}, Slack-, Discord- und Teams-Aktionen {webhookUrl}). Webhook-URLs zu Loopback-, privaten oder Link-Local-Adressen werden abgelehnt.',
  },
  {
    method: "GET, PUT, DELETE",
    path: "/api/0/projects/{org}/{project}/rules/{id}/",
    en: "One issue alert rule; PUT replaces it with the same fields as a create; DELETE answers 202.",
    de: "Eine Issue-Alarmregel; PUT ersetzt sie mit denselben Feldern wie beim Anlegen; DELETE antwortet 202.",
  },
  {
    method: "GET",
    path: "/api/0/projects/{org}/{project}/issues/",
    en: "Issues: query= (is:unresolved|resolved|ignored|assigned|unassigned, level:, release:, environment:, assigned:me|none|#team|e-mail|[me, none], tags[key]:, text; at most 2,000 characters and 50 terms, 400 beyond), sort= (date, new, freq, user), environment= (repeatable), statsPeriod= (24h, 14d or empty).",
    de: "Issues: query= (is:unresolved|resolved|ignored|assigned|unassigned, level:, release:, environment:, assigned:me|none|#team|E-Mail|[me, none], tags[key]:, Text; höchstens 2.000 Zeichen und 50 Begriffe, darüber 400), sort= (date, new, freq, user), environment= (wiederholbar), statsPeriod= (24h, 14d oder leer).",
  },
  {
    method: "PUT, DELETE",
    path: "/api/0/projects/{org}/{project}/issues/?id=…",
    en: "Change several issues at once ({status, statusDetails?} and/or {assignedTo}) or delete them.",
    de: "Mehrere Issues auf einmal ändern ({status, statusDetails?} und/oder {assignedTo}) oder löschen.",
  },
  {
    method: "GET",
    path: "/api/0/projects/{org}/{project}/events/{eventId}/",
    en: "One event with its entries (message, exception with frames and context lines, breadcrumbs, request…), contexts, processing errors and grouping hashes, and nextEventID and previousEventID in its issue.",
    de: "Ein Event mit seinen Einträgen (Nachricht, Exception mit Frames und Quellzeilen, Breadcrumbs, Request…), Kontexten, Verarbeitungsfehlern und Gruppierungs-Hashes, und nextEventID und previousEventID in seinem Issue.",
  },
  {
    method: "GET",
    path: "/api/0/projects/{org}/{project}/events/{eventId}/attachments/",
    en: "The event's attachments in Sentry's EventAttachment shape (id, name, type, mimetype, size, sha1, dateCreated): screenshots, logs, view hierarchies, minidumps. Every role that sees the event sees the list.",
    de: "Die Anhänge des Events in Sentrys EventAttachment-Form (id, name, type, mimetype, size, sha1, dateCreated): Bildschirmfotos, Logs, Ansichtshierarchien, Minidumps. Jede Rolle, die das Event sieht, sieht die Liste.",
  },
  {
    method: "GET",
    path: "/api/0/projects/{org}/{project}/events/{eventId}/attachments/{id}/",
    en: "One attachment; with ?download=1 its contents as sent (Content-Disposition: attachment, nosniff, a sandboxing policy), for roles at or above the project's attachmentsRole (member by default; 403 below it). Faultline's ?inline=1 shows a raster image (PNG, JPEG, GIF, WebP, AVIF, BMP) in place; anything else, SVG included, is always a download.",
    de: "Ein Anhang; mit ?download=1 sein Inhalt wie gesendet (Content-Disposition: attachment, nosniff, eine Sandbox-Richtlinie), für Rollen ab der attachmentsRole des Projekts (standardmäßig member; darunter 403). Faultline-eigen ?inline=1 zeigt ein Rasterbild (PNG, JPEG, GIF, WebP, AVIF, BMP) an Ort und Stelle; alles andere, auch SVG, ist immer ein Download.",
  },
  {
    method: "GET, PUT, DELETE",
    path: "/api/0/issues/{id}/",
    en: 'An issue with its activity and stats (24h hourly, 30d daily); change its status or assignee ({assignedTo: "user:<id>" | "team:<id>" | e-mail | null}); delete it.',
    de: 'Ein Issue mit Aktivität und Statistik (24h stündlich, 30d täglich); Status oder Zuständigkeit ändern ({assignedTo: "user:<id>" | "team:<id>" | E-Mail | null}); löschen.',
  },
  { method: "GET", path: "/api/0/issues/{id}/events/", en: "The issue's events, newest first.", de: "Die Events des Issues, neueste zuerst." },
  {
    method: "GET",
    path: "/api/0/issues/{id}/events/{eventId|latest|oldest}/",
    en: "One event of the issue, in the same shape, with nextEventID and previousEventID; with environment= (may repeat), latest, oldest and the neighbours are among that environment's events.",
    de: "Ein Event des Issues, in derselben Form, mit nextEventID und previousEventID; mit environment= (wiederholbar) sind latest, oldest und die Nachbarn Events dieser Umgebung.",
  },
  {
    method: "GET",
    path: "/api/0/issues/{id}/tags/",
    en: "Tag keys with totalValues, uniqueValues and the most frequent values.",
    de: "Tag-Schlüssel mit totalValues, uniqueValues und den häufigsten Werten.",
  },
  {
    method: "GET",
    path: "/api/0/issues/{id}/tags/{key}/",
    en: "One tag key with its most frequent values.",
    de: "Ein Tag-Schlüssel mit seinen häufigsten Werten.",
  },
  {
    method: "GET",
    path: "/api/0/issues/{id}/tags/{key}/values/",
    en: "Every value of one tag key, most frequent first, paginated.",
    de: "Alle Werte eines Tag-Schlüssels, häufigste zuerst, geblättert.",
  },
  {
    method: "GET, POST",
    path: "/api/0/issues/{id}/comments/",
    en: "Comments, newest first; add one: {text}.",
    de: "Kommentare, neueste zuerst; einen hinzufügen: {text}.",
  },
  {
    method: "PUT, DELETE",
    path: "/api/0/issues/{id}/comments/{commentId}/",
    en: "Edit your comment ({text}); delete yours, or anyone's as an admin or owner.",
    de: "Eigenen Kommentar bearbeiten ({text}); eigenen löschen, als Admin oder Owner auch fremde.",
  },
  {
    method: "GET, POST",
    path: "/api/0/organizations/{org}/releases/",
    en: "Releases, newest first (?project=, ?query= part of the version, ?health=1 adds healthData from sessions, ?environment=); create one: {version, projects, url?, ref?, dateReleased?, dateStarted?, refs?, commits?, status?}. Creating an existing version returns it: 208, or 201 when it gains projects; it needs no projects, and its status (open or archived: sentry-cli releases archive and restore) and commits are updated.",
    de: "Releases, neueste zuerst (?project=, ?query= Teil der Version, ?health=1 fügt healthData aus Sessions hinzu, ?environment=); eines anlegen: {version, projects, url?, ref?, dateReleased?, dateStarted?, refs?, commits?, status?}. Eine vorhandene Version wird zurückgegeben: 208, oder 201, wenn sie Projekte dazugewinnt; sie braucht keine Projekte, und ihr Status (open oder archived: sentry-cli releases archive und restore) und ihre Commits werden übernommen.",
  },
  {
    method: "GET, PUT, DELETE",
    path: "/api/0/organizations/{org}/releases/{version}/",
    en: "Read a release (percent-encode the version; ?health=1), update it (dateReleased to finalize, url, ref, refs or commits from set-commits, status, more projects) or delete it.",
    de: "Release lesen (Version prozentkodiert; ?health=1), ändern (dateReleased zum Abschließen, url, ref, refs oder commits von set-commits, Status, weitere Projekte) oder löschen.",
  },
  {
    method: "GET",
    path: "/api/0/organizations/{org}/releases/{version}/previous-with-commits/",
    en: "The newest older release with commits, or {} (where sentry-cli releases set-commits --local starts).",
    de: "Das neueste ältere Release mit Commits, oder {} (ab dort liest sentry-cli releases set-commits --local).",
  },
  {
    method: "GET",
    path: "/api/0/organizations/{org}/repos/",
    en: "Linked repositories: always empty (no repository integrations), so set-commits reads the local git checkout.",
    de: "Verknüpfte Repositories: immer leer (keine Repository-Integrationen), daher liest set-commits den lokalen Git-Checkout.",
  },
  {
    method: "GET, POST",
    path: "/api/0/organizations/{org}/chunk-upload/",
    en: "sentry-cli's chunk upload: the options (chunk size, chunks per request, gzip, accept), then multipart chunks named by their SHA-1 (file or gzip'd file_gzip parts; the chunks of one request inflate to at most 64 MiB, 413 beyond).",
    de: "Chunk-Upload von sentry-cli: die Optionen (Chunk-Größe, Chunks pro Anfrage, gzip, accept), dann Multipart-Chunks, benannt nach ihrem SHA-1 (Teile file oder gzip-komprimiert file_gzip; die Chunks einer Anfrage ergeben entpackt höchstens 64 MiB, darüber 413).",
  },
  {
    method: "GET",
    path: "/api/0/projects/{org}/{project}/logs/",
    en: "The project's log lines, newest first: query (words, each matching the start of a word; key:value attribute terms; level:…; trace:…), level, statsPeriod (1h, 24h, 7d, 14d, 30d), start and end (ISO), trace, per_page (at most 100); paged with the Link header's cursor. Each line: id, timestamp, severity, severity_number, message, trace, span_id, release, environment, project, attributes ({key: {type, value}}). A search it cannot read is a 400 naming the field. event:read.",
    de: "Die Logzeilen des Projekts, neueste zuerst: query (Wörter, jedes passt auf den Anfang eines Wortes; Attribute als key:value; level:…; trace:…), level, statsPeriod (1h, 24h, 7d, 14d, 30d), start und end (ISO), trace, per_page (höchstens 100); weitere Seiten über den Cursor im Link-Header. Jede Zeile: id, timestamp, severity, severity_number, message, trace, span_id, release, environment, project, attributes ({key: {type, value}}). Eine unlesbare Suche ergibt 400 mit dem Feld. event:read.",
  },
  {
    method: "GET",
    path: "/api/0/organizations/{org}/events/?dataset=logs",
    en: "Sentry's events API for its logs explorer: one project by its id (project=…), field (repeated; a line's fields or its attributes by key), query, statsPeriod or start and end, sort=-timestamp, per_page, cursor. Answers {data, meta: {fields}}. Other datasets are a 400. event:read.",
    de: "Sentrys Events-API für den Log-Explorer: ein Projekt über seine ID (project=…), field (wiederholbar; Felder der Zeile oder ihre Attribute nach Schlüssel), query, statsPeriod oder start und end, sort=-timestamp, per_page, cursor. Antwort {data, meta: {fields}}. Andere Datasets ergeben 400. event:read.",
  },
  {
    method: "GET, POST",
    path: "/api/0/projects/{org}/{project}/user-feedback/",
    en: "User reports, as Sentry's deprecated endpoint for older SDKs: POST {event_id, name?, email?, comments} with the project's DSN (Authorization: DSN <dsn>) or a token of a role that may triage; a second report for the same event replaces the first; it is linked to the event's issue once both are stored. A missing event id, empty comments, an invalid e-mail or a wrong type is a 400 naming the field; long values are cut (16,384 characters of comments). GET lists the project's feedback (widget and reports) in Sentry's UserReport shape.",
    de: "Nutzerberichte, wie Sentrys veralteter Endpunkt für ältere SDKs: POST {event_id, name?, email?, comments} mit der DSN des Projekts (Authorization: DSN <dsn>) oder dem Token einer Rolle, die triagieren darf; ein zweiter Bericht zum selben Ereignis ersetzt den ersten; er wird mit dem Issue des Ereignisses verknüpft, sobald beide gespeichert sind. Fehlende Ereignis-ID, leere comments, eine ungültige E-Mail oder ein falscher Typ ergibt 400 mit dem Feld; lange Werte werden gekürzt (16.384 Zeichen comments). GET listet das Feedback des Projekts (Widget und Berichte) in Sentrys UserReport-Form.",
  },
  {
    method: "GET",
    path: "/api/0/organizations/{org}/personal-data/export/",
    en: "Faultline's: the events of one user in every project of the organization as one JSON file (owners and superusers; a token needs event:admin): ?field=id|email|username|ip|any&value=… matched exactly; at most 10,000 events; a value over 200 characters or with control characters is a 400.",
    de: "Faultline-eigen: die Ereignisse einer Person in allen Projekten der Organisation als eine JSON-Datei (Eigentümer und Superuser; ein Token braucht event:admin): ?field=id|email|username|ip|any&value=… genau verglichen; höchstens 10.000 Ereignisse; ein Wert über 200 Zeichen oder mit Steuerzeichen ergibt 400.",
  },
  {
    method: "GET, POST",
    path: "/api/0/organizations/{org}/monitors/",
    en: 'Cron monitors (?project= narrows), as sentry-cli monitors list reads them; create one: {project, name, slug?, isMuted?, status?, config: {schedule_type: crontab|interval, schedule: "0 * * * *" or [count, unit], timezone?, checkin_margin?, max_runtime?, failure_issue_threshold?, recovery_threshold?}}. A bad crontab or time zone is a 400, a slug taken in the organization a 409.',
    de: 'Cron-Monitore (?project= schränkt ein), wie sentry-cli monitors list sie liest; einen anlegen: {project, name, slug?, isMuted?, status?, config: {schedule_type: crontab|interval, schedule: "0 * * * *" oder [Anzahl, Einheit], timezone?, checkin_margin?, max_runtime?, failure_issue_threshold?, recovery_threshold?}}. Eine falsche Crontab oder Zeitzone ergibt 400, ein in der Organisation vergebener Slug 409.',
  },
  {
    method: "GET, PUT, DELETE",
    path: "/api/0/organizations/{org}/monitors/{slug}/",
    en: "One monitor with its environments; PUT changes name, slug, config, isMuted (mute) or status; DELETE answers 202.",
    de: "Ein Monitor mit seinen Umgebungen; PUT ändert Name, Slug, config, isMuted (stummschalten) oder status; DELETE antwortet 202.",
  },
  {
    method: "GET, POST",
    path: "/api/0/organizations/{org}/monitors/{slug}/checkins/",
    en: "The monitor's latest check-ins, newest first (durations in milliseconds); send one: {status: in_progress|ok|error, duration? (ms), environment?} → {id}. SDKs and sentry-cli monitors run send check-ins to the DSN instead (check_in items, or /api/{project_id}/cron/{slug}/{key}/?status=…).",
    de: "Die letzten Check-ins des Monitors, neueste zuerst (Dauer in Millisekunden); einen senden: {status: in_progress|ok|error, duration? (ms), environment?} → {id}. SDKs und sentry-cli monitors run senden Check-ins stattdessen an den DSN (check_in-Items oder /api/{project_id}/cron/{slug}/{key}/?status=…).",
  },
  {
    method: "PUT",
    path: "/api/0/organizations/{org}/monitors/{slug}/checkins/{id|latest}/",
    en: "Finish a check-in: {status: ok|error, duration?}; latest is the environment's newest one in progress.",
    de: "Einen Check-in abschließen: {status: ok|error, duration?}; latest ist der neueste laufende der Umgebung.",
  },
  {
    method: "POST",
    path: "/api/0/organizations/{org}/artifactbundle/assemble/",
    en: "Assemble uploaded chunks into an artifact bundle: {checksum, chunks, projects, version?, dist?} → {state, missingChunks, detail}. A bundle already stored answers ok with nothing missing.",
    de: "Hochgeladene Chunks zu einem Artifact-Bundle zusammensetzen: {checksum, chunks, projects, version?, dist?} → {state, missingChunks, detail}. Ein schon gespeichertes Bundle antwortet ok, ohne fehlende Chunks.",
  },
  {
    method: "POST",
    path: "/api/0/organizations/{org}/releases/{version}/assemble/",
    en: "The same for a bundle bound to the release and its projects (sentry-cli 2.x without artifact bundles).",
    de: "Dasselbe für ein an das Release und seine Projekte gebundenes Bundle (sentry-cli 2.x ohne Artifact-Bundles).",
  },
  {
    method: "GET, POST",
    path: "/api/0/organizations/{org}/releases/{version}/files/",
    en: 'The release\'s source files; upload one (multipart: file, name, dist?, header "Key:Value"…): 201, or 409 when the name exists. Also under /projects/{org}/{project}/, with DELETE …/files/{id}/.',
    de: 'Die Quelldateien des Release; eine hochladen (Multipart: file, name, dist?, header "Key:Value"…): 201, oder 409, wenn der Name schon existiert. Auch unter /projects/{org}/{project}/, mit DELETE …/files/{id}/.',
  },
  {
    method: "GET, POST",
    path: "/api/0/projects/{org}/{project}/releases/",
    en: "The project's releases; create one for this project.",
    de: "Releases des Projekts; eines für dieses Projekt anlegen.",
  },
  {
    method: "GET, PUT",
    path: "/api/0/projects/{org}/{project}/releases/{version}/",
    en: "A release as the project sees it (its new issues, first and last event, healthData); update it.",
    de: "Ein Release aus Sicht des Projekts (neue Issues, erstes und letztes Ereignis, healthData); ändern.",
  },
];

export const API_TEXT: Record<DocsLocale, { title: string; intro: string; method: string; path: string; what: string; nav: string }> = {
  en: {
    title: "Web API",
    nav: "Web API",
    intro:
      'Faultline answers Sentry\'s web API paths with Sentry\'s field names. Authenticate with a personal API token (Account → API tokens, or `faultline createtoken`) as `Authorization: Bearer <token>`; it acts with your roles. For CI and sentry-cli, an organization auth token (Organization settings → Auth tokens, `sntrys_…`) acts for that organization alone with Sentry\'s `org:ci` scope: it reads the organization and its projects and creates and updates releases, and gets 403 for everything else; sentry-cli takes the server and the organization from the token itself. Errors are JSON {"detail": …}; lists are paginated with the Link header and its cursors (a cursor the list did not hand out is a 400 "Invalid cursor parameter").',
    method: "Method",
    path: "Path",
    what: "What it does",
  },
  de: {
    title: "Web-API",
    nav: "Web-API",
    intro:
      'Faultline beantwortet die Pfade von Sentrys Web-API mit Sentrys Feldnamen. Melde dich mit einem persönlichen API-Token an (Konto → API-Tokens oder `faultline createtoken`), als `Authorization: Bearer <token>`; es handelt mit deinen Rollen. Für CI und sentry-cli handelt ein Organisations-Auth-Token (Organisationseinstellungen → Auth-Tokens, `sntrys_…`) nur für diese Organisation mit Sentrys Scope `org:ci`: Es liest die Organisation und ihre Projekte und legt Releases an und ändert sie, alles andere ist ein 403; sentry-cli liest Server und Organisation aus dem Token selbst. Fehler kommen als JSON {"detail": …}; Listen werden über den Link-Header mit Cursorn geblättert (ein Cursor, den die Liste nicht ausgegeben hat, ist ein 400 "Invalid cursor parameter").',
    method: "Methode",
    path: "Pfad",
    what: "Wozu",
  },
};
