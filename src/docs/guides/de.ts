// German text of the SDK guides.
import type { GuideSlug, GuideText } from "./types";

export const DE: Record<GuideSlug, GuideText> = {
  javascript: {
    title: "JavaScript (Browser)",
    summary: "Melde Fehler und Seiten-Performance aus jeder Browser-App mit @sentry/browser.",
    steps: [
      { title: "SDK installieren", body: "Füge deiner App das offizielle Browser-SDK hinzu." },
      {
        title: "SDK initialisieren",
        body: "Rufe Sentry.init so früh wie möglich auf, bevor der Rest deiner App lädt. Nicht abgefangene Fehler und unbehandelte Promise-Rejections werden automatisch gemeldet. tracesSampleRate legt fest, welcher Anteil der Seitenaufrufe und Navigationen für die Performance-Analyse aufgezeichnet wird (1.0 = alle); mit release und environment kannst du Issues in Faultline filtern.",
      },
      {
        title: "Testfehler senden",
        body: "Führe das einmal aus. Der Fehler erscheint nach wenigen Sekunden im Issue-Stream des Projekts in Faultline.",
      },
      {
        title: "Source Maps hochladen (optional)",
        body: "Damit Stacktraces deinen Originalcode zeigen, lädst du die Source Maps jedes Builds mit sentry-cli hoch, mit demselben release wie in Sentry.init. SENTRY_AUTH_TOKEN ist ein persönliches API-Token aus Faultline, das du unter Konto → API-Tokens erstellst. Statt --url kannst du auch SENTRY_URL=https://faultline.example.com setzen; --org und --project sind die Slugs deiner Organisation und deines Projekts in Faultline.",
      },
    ],
  },
  nextjs: {
    title: "Next.js",
    summary: "Erfasse Fehler und Traces im Client, auf dem Server und am Edge mit @sentry/nextjs.",
    steps: [
      { title: "SDK installieren", body: "Füge deiner App das offizielle Next.js-SDK hinzu." },
      {
        title: "Im Browser initialisieren",
        body: "Lege instrumentation-client.ts im Projektstamm (oder in src/) an. Werbeblocker verwerfen manchmal Anfragen an einen fremden Host: Die SDK-Option tunnel kann auf eine Route unter deiner eigenen Domain zeigen, die die Ereignisse an Faultline weiterleitet.",
      },
      {
        title: "Auf dem Server initialisieren",
        body: "Schreibe die Server-Initialisierung in sentry.server.config.ts und lade sie in instrumentation.ts aus register(). onRequestError meldet Fehler aus Server Components, Route Handlers und Middleware.",
      },
      {
        title: "Next.js-Konfiguration einbinden",
        body: "withSentryConfig instrumentiert den Build und lädt die Source Maps zu Faultline hoch. Ab SDK v11 importierst du es aus @sentry/nextjs/config; ältere Versionen importieren es aus @sentry/nextjs. SENTRY_AUTH_TOKEN ist ein persönliches API-Token aus Faultline (Konto → API-Tokens); org und project sind die Slugs deiner Organisation und deines Projekts in Faultline.",
      },
      {
        title: "Testfehler senden",
        body: "Baue diesen Button in eine Seite ein und klicke darauf. Der Fehler erscheint im Issue-Stream des Projekts in Faultline.",
      },
    ],
  },
  node: {
    title: "Node.js",
    summary: "Melde Fehler und Traces aus Node.js-Diensten mit @sentry/node.",
    steps: [
      { title: "SDK installieren", body: "Füge das offizielle Node.js-SDK hinzu." },
      {
        title: "Vor allem anderen initialisieren",
        body: "Das SDK muss vor deinen übrigen Imports laufen, damit es sie instrumentieren kann. Schreib Sentry.init in eine eigene Datei und lade sie mit node --import ./instrument.mjs; bei CommonJS bindest du sie in der ersten Zeile deiner Einstiegsdatei per require ein. tracesSampleRate legt fest, welcher Anteil der Anfragen für die Performance-Analyse aufgezeichnet wird.",
      },
      {
        title: "Testfehler senden",
        body: "Erfasse einen Fehler und rufe flush auf, bevor der Prozess endet. Er erscheint im Issue-Stream des Projekts in Faultline.",
      },
      {
        title: "Frameworks (optional)",
        body: "Express, Fastify, Koa und andere werden automatisch instrumentiert. Bei Express registrierst du den Error-Handler nach allen Routen, damit Fehler aus deinen Handlern gemeldet werden.",
      },
    ],
  },
  python: {
    title: "Python",
    summary: "Melde Exceptions und Traces aus Python-Apps, auch mit Django, Flask und FastAPI, mit sentry-sdk.",
    steps: [
      { title: "SDK installieren", body: "Füge das offizielle Python-SDK deiner Umgebung oder deiner Requirements-Datei hinzu." },
      {
        title: "SDK initialisieren",
        body: "Rufe sentry_sdk.init so früh wie möglich auf: bei Django in settings.py, bei Flask oder FastAPI bevor du die App erzeugst. Integrationen für installierte Frameworks schalten sich von selbst ein. traces_sample_rate legt fest, welcher Anteil der Anfragen für die Performance-Analyse aufgezeichnet wird; mit release und environment kannst du Issues in Faultline filtern.",
      },
      {
        title: "Testfehler senden",
        body: "Füge diese Zeile irgendwo in deinen Code ein und führe ihn aus. Der ZeroDivisionError erscheint im Issue-Stream des Projekts in Faultline.",
      },
    ],
  },
  ruby: {
    title: "Ruby",
    summary: "Melde Exceptions aus Ruby- und Rails-Apps mit sentry-ruby oder dem älteren Gem sentry-raven.",
    steps: [
      { title: "Gem installieren", body: "Trag sentry-ruby in dein Gemfile ein, bei Rails-Apps zusätzlich sentry-rails, und führe bundle install aus." },
      {
        title: "SDK initialisieren",
        body: "Bei Rails gehört das in einen Initializer, sonst führst du es beim Start deiner App aus. traces_sample_rate legt fest, welcher Anteil der Anfragen für die Performance-Analyse aufgezeichnet wird.",
      },
      { title: "Testfehler senden", body: "Führe das einmal aus. Der ZeroDivisionError erscheint im Issue-Stream des Projekts in Faultline." },
      {
        title: "Noch mit sentry-raven unterwegs?",
        body: "Auch das alte Gem sentry-raven funktioniert mit Faultline: Konfiguriere es mit demselben DSN. Für neuen Code nimm besser sentry-ruby.",
      },
    ],
  },
  go: {
    title: "Go",
    summary: "Melde Fehler und Panics aus Go-Programmen mit sentry-go.",
    steps: [
      { title: "SDK installieren", body: "Füge deinem Modul das offizielle Go-SDK hinzu." },
      {
        title: "SDK initialisieren",
        body: "Rufe sentry.Init am Anfang von main auf. Ereignisse werden im Hintergrund gesendet; mit defer sentry.Flush gehen noch wartende Ereignisse raus, bevor das Programm endet. TracesSampleRate legt fest, welcher Anteil der Transaktionen für die Performance-Analyse aufgezeichnet wird.",
      },
      { title: "Testfehler senden", body: "Erfasse einmal einen Fehler. Er erscheint im Issue-Stream des Projekts in Faultline." },
      {
        title: "HTTP-Server (optional)",
        body: "Bei net/http umschließt du deine Handler mit der sentryhttp-Middleware: Sie meldet Panics und zeichnet für jede Anfrage eine Transaktion auf. Die Integrationen für Gin, Echo, Fiber und andere funktionieren genauso.",
      },
    ],
  },
  php: {
    title: "PHP",
    summary: "Melde Exceptions und Traces aus PHP-Apps mit sentry/sentry.",
    steps: [
      { title: "SDK installieren", body: "Füge das offizielle PHP-SDK mit Composer hinzu." },
      {
        title: "SDK initialisieren",
        body: "Rufe \\Sentry\\init so früh wie möglich auf, direkt nach dem Autoloader von Composer. Danach werden nicht abgefangene Exceptions und fatale Fehler automatisch gemeldet. traces_sample_rate legt fest, welcher Anteil der Anfragen für die Performance-Analyse aufgezeichnet wird.",
      },
      { title: "Testfehler senden", body: "Erfasse einmal eine Exception. Sie erscheint im Issue-Stream des Projekts in Faultline." },
      {
        title: "Laravel und Symfony (optional)",
        body: "Für Laravel nimmst du sentry/sentry-laravel und trägst den DSN wie gezeigt in .env ein; für Symfony sentry/sentry-symfony mit SENTRY_DSN. Beide nutzen denselben Faultline-DSN.",
      },
    ],
  },
  java: {
    title: "Java",
    summary: "Melde Exceptions und Traces aus Java-Apps mit io.sentry:sentry.",
    steps: [
      {
        title: "Abhängigkeit hinzufügen (Maven)",
        body: "Füge das SDK in deine pom.xml ein. Ersetze SENTRY_VERSION durch das aktuelle Release von io.sentry:sentry auf Maven Central. Bei Spring Boot nimmst du stattdessen io.sentry:sentry-spring-boot-starter-jakarta und setzt sentry.dsn in application.properties.",
      },
      { title: "…oder mit Gradle", body: "Mit Gradle fügst du diese Zeile in den dependencies-Block deiner build.gradle ein." },
      {
        title: "SDK initialisieren",
        body: "Rufe Sentry.init beim Start deiner App auf. Nicht abgefangene Exceptions werden automatisch gemeldet. setTracesSampleRate legt fest, welcher Anteil der Transaktionen für die Performance-Analyse aufgezeichnet wird.",
      },
      { title: "Testfehler senden", body: "Erfasse einmal eine Exception. Sie erscheint im Issue-Stream des Projekts in Faultline." },
    ],
  },
  dotnet: {
    title: ".NET",
    summary: "Melde Exceptions und Traces aus .NET-Apps mit dem NuGet-Paket Sentry.",
    steps: [
      { title: "Paket installieren", body: "Füge das offizielle Paket Sentry aus NuGet hinzu." },
      {
        title: "SDK initialisieren",
        body: "Rufe SentrySdk.Init beim Start deiner App auf und behalte das zurückgegebene Objekt, bis sie endet: Wird es am Ende des using-Blocks freigegeben, gehen wartende Ereignisse noch raus. TracesSampleRate legt fest, welcher Anteil der Transaktionen für die Performance-Analyse aufgezeichnet wird.",
      },
      { title: "Testfehler senden", body: "Erfasse einmal eine Exception. Sie erscheint im Issue-Stream des Projekts in Faultline." },
      {
        title: "ASP.NET Core (optional)",
        body: "Bei ASP.NET Core installierst du Sentry.AspNetCore und rufst UseSentry auf dem Web-Host auf statt SentrySdk.Init. Fehler in Anfragen werden dann automatisch gemeldet.",
      },
    ],
  },
};
