// Content of the SDK setup guides ("Send events to Faultline"), in English and German.
// Code samples are shared by both locales; only the human text is translated.
// Every sample uses DSN_PLACEHOLDER, which the docs page swaps for a project's DSN.

export const DOCS_LOCALES = ["en", "de"] as const;
export type DocsLocale = (typeof DOCS_LOCALES)[number];

/** Text a guide shows where the project's DSN goes; the docs page replaces it when opened from a project. */
export const DSN_PLACEHOLDER = "https://PUBLIC_KEY@faultline.example.com/PROJECT_ID";

export type GuideStep = { title: string; body: string; code?: { lang: string; source: string } };
export type Guide = { slug: string; title: string; summary: string; steps: GuideStep[] };
export type DocsContent = { title: string; intro: string; nav: string; guides: Guide[]; dsnFilled: string; dsnMissing: string; backToApp: string };

export const GUIDE_SLUGS = ["javascript", "nextjs", "node", "python", "ruby", "go", "php", "java", "dotnet"] as const;
type GuideSlug = (typeof GUIDE_SLUGS)[number];

type Code = { lang: string; source: string };
type StepText = { title: string; body: string };
type GuideText = { title: string; summary: string; steps: StepText[] };

const FAULTLINE_URL = "https://faultline.example.com";

/** Code per guide, one entry per step (undefined = step without code). Identical in every locale. */
const CODE: Record<GuideSlug, (Code | undefined)[]> = {
  javascript: [
    { lang: "sh", source: "npm install @sentry/browser" },
    {
      lang: "js",
      source: `import * as Sentry from "@sentry/browser";

Sentry.init({
  dsn: "${DSN_PLACEHOLDER}",
  release: "my-app@1.0.0",
  environment: "production",
  integrations: [Sentry.browserTracingIntegration()],
  tracesSampleRate: 0.1,
});`,
    },
    {
      lang: "js",
      source: `try {
  throw new Error("Faultline test error");
} catch (err) {
  Sentry.captureException(err);
}`,
    },
    {
      lang: "sh",
      source: `npm install --save-dev @sentry/cli
export SENTRY_AUTH_TOKEN=your-faultline-api-token

npx sentry-cli --url ${FAULTLINE_URL} sourcemaps upload \\
  --org your-org --project your-project \\
  --release my-app@1.0.0 ./dist`,
    },
  ],
  nextjs: [
    { lang: "sh", source: "npm install @sentry/nextjs" },
    {
      lang: "ts",
      source: `// instrumentation-client.ts
import * as Sentry from "@sentry/nextjs";

Sentry.init({
  dsn: "${DSN_PLACEHOLDER}",
  tracesSampleRate: 0.1,
  // tunnel: "/monitoring",
});

export const onRouterTransitionStart = Sentry.captureRouterTransitionStart;`,
    },
    {
      lang: "ts",
      source: `// sentry.server.config.ts (copy it to sentry.edge.config.ts for the edge runtime)
import * as Sentry from "@sentry/nextjs";

Sentry.init({
  dsn: "${DSN_PLACEHOLDER}",
  tracesSampleRate: 0.1,
});

// instrumentation.ts
import * as Sentry from "@sentry/nextjs";

export async function register() {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    await import("./sentry.server.config");
  }
  if (process.env.NEXT_RUNTIME === "edge") {
    await import("./sentry.edge.config");
  }
}

export const onRequestError = Sentry.captureRequestError;`,
    },
    {
      lang: "ts",
      source: `// next.config.ts
import type { NextConfig } from "next";
import { withSentryConfig } from "@sentry/nextjs/config";

const nextConfig: NextConfig = {};

export default withSentryConfig(nextConfig, {
  sentryUrl: "${FAULTLINE_URL}",
  org: "your-org",
  project: "your-project",
  authToken: process.env.SENTRY_AUTH_TOKEN,
});`,
    },
    {
      lang: "tsx",
      source: `"use client";

export default function Page() {
  const fail = () => {
    throw new Error("Faultline test error");
  };
  return <button onClick={fail}>Send test error</button>;
}`,
    },
  ],
  node: [
    { lang: "sh", source: "npm install @sentry/node" },
    {
      lang: "js",
      source: `// instrument.mjs
import * as Sentry from "@sentry/node";

Sentry.init({
  dsn: "${DSN_PLACEHOLDER}",
  release: "my-app@1.0.0",
  environment: "production",
  tracesSampleRate: 0.1,
});

// Start your app with: node --import ./instrument.mjs app.mjs`,
    },
    {
      lang: "js",
      source: `import * as Sentry from "@sentry/node";

try {
  throw new Error("Faultline test error");
} catch (err) {
  Sentry.captureException(err);
}
await Sentry.flush(2000);`,
    },
    {
      lang: "js",
      source: `import express from "express";
import * as Sentry from "@sentry/node";

const app = express();
// ... your routes ...
Sentry.setupExpressErrorHandler(app);
app.listen(3000);`,
    },
  ],
  python: [
    { lang: "sh", source: "pip install --upgrade sentry-sdk" },
    {
      lang: "python",
      source: `import sentry_sdk

sentry_sdk.init(
    dsn="${DSN_PLACEHOLDER}",
    release="my-app@1.0.0",
    environment="production",
    traces_sample_rate=0.1,
)`,
    },
    { lang: "python", source: "division_by_zero = 1 / 0" },
  ],
  ruby: [
    {
      lang: "ruby",
      source: `# Gemfile
gem "sentry-ruby"
gem "sentry-rails" # only for Rails apps

# then run: bundle install`,
    },
    {
      lang: "ruby",
      source: `# config/initializers/sentry.rb (Rails) or at the start of your app
Sentry.init do |config|
  config.dsn = "${DSN_PLACEHOLDER}"
  config.release = "my-app@1.0.0"
  config.environment = "production"
  config.traces_sample_rate = 0.1
end`,
    },
    {
      lang: "ruby",
      source: `begin
  1 / 0
rescue ZeroDivisionError => e
  Sentry.capture_exception(e)
end`,
    },
    {
      lang: "ruby",
      source: `# Gemfile: gem "sentry-raven"
Raven.configure do |config|
  config.dsn = "${DSN_PLACEHOLDER}"
  config.current_environment = "production"
end

Raven.capture_exception(e)`,
    },
  ],
  go: [
    { lang: "sh", source: "go get github.com/getsentry/sentry-go" },
    {
      lang: "go",
      source: `package main

import (
	"log"
	"time"

	"github.com/getsentry/sentry-go"
)

func main() {
	err := sentry.Init(sentry.ClientOptions{
		Dsn:              "${DSN_PLACEHOLDER}",
		Release:          "my-app@1.0.0",
		Environment:      "production",
		EnableTracing:    true,
		TracesSampleRate: 0.1,
	})
	if err != nil {
		log.Fatalf("sentry.Init: %s", err)
	}
	// Send buffered events before the program exits.
	defer sentry.Flush(2 * time.Second)

	// ... your program ...
}`,
    },
    {
      lang: "go",
      source: `// import "errors"
sentry.CaptureException(errors.New("Faultline test error"))`,
    },
    {
      lang: "go",
      source: `// import sentryhttp "github.com/getsentry/sentry-go/http"
sentryHandler := sentryhttp.New(sentryhttp.Options{Repanic: true})
http.Handle("/", sentryHandler.Handle(yourHandler))`,
    },
  ],
  php: [
    { lang: "sh", source: "composer require sentry/sentry" },
    {
      lang: "php",
      source: `<?php
require __DIR__ . '/vendor/autoload.php';

\\Sentry\\init([
    'dsn' => '${DSN_PLACEHOLDER}',
    'release' => 'my-app@1.0.0',
    'environment' => 'production',
    'traces_sample_rate' => 0.1,
]);`,
    },
    {
      lang: "php",
      source: `try {
    throw new \\RuntimeException('Faultline test error');
} catch (\\Throwable $e) {
    \\Sentry\\captureException($e);
}`,
    },
    {
      lang: "sh",
      source: `composer require sentry/sentry-laravel
# .env
SENTRY_LARAVEL_DSN=${DSN_PLACEHOLDER}`,
    },
  ],
  java: [
    {
      lang: "xml",
      source: `<dependency>
  <groupId>io.sentry</groupId>
  <artifactId>sentry</artifactId>
  <version>SENTRY_VERSION</version>
</dependency>`,
    },
    { lang: "groovy", source: `implementation "io.sentry:sentry:SENTRY_VERSION"` },
    {
      lang: "java",
      source: `import io.sentry.Sentry;

public class App {
    public static void main(String[] args) {
        Sentry.init(options -> {
            options.setDsn("${DSN_PLACEHOLDER}");
            options.setRelease("my-app@1.0.0");
            options.setEnvironment("production");
            options.setTracesSampleRate(0.1);
        });
    }
}`,
    },
    {
      lang: "java",
      source: `try {
    throw new Exception("Faultline test error");
} catch (Exception e) {
    Sentry.captureException(e);
}`,
    },
  ],
  dotnet: [
    { lang: "sh", source: "dotnet add package Sentry" },
    {
      lang: "csharp",
      source: `using Sentry;

using (SentrySdk.Init(o =>
{
    o.Dsn = "${DSN_PLACEHOLDER}";
    o.Release = "my-app@1.0.0";
    o.Environment = "production";
    o.TracesSampleRate = 0.1;
}))
{
    // Your app runs here; disposing the SDK flushes queued events.
}`,
    },
    {
      lang: "csharp",
      source: `try
{
    throw new InvalidOperationException("Faultline test error");
}
catch (Exception ex)
{
    SentrySdk.CaptureException(ex);
}`,
    },
    {
      lang: "csharp",
      source: `// dotnet add package Sentry.AspNetCore
var builder = WebApplication.CreateBuilder(args);
builder.WebHost.UseSentry(o =>
{
    o.Dsn = "${DSN_PLACEHOLDER}";
    o.TracesSampleRate = 0.1;
});`,
    },
  ],
};

const EN: Record<GuideSlug, GuideText> = {
  javascript: {
    title: "JavaScript (browser)",
    summary: "Report errors and page performance from any browser app with @sentry/browser.",
    steps: [
      { title: "Install the SDK", body: "Add the official browser SDK to your app." },
      {
        title: "Initialise it",
        body: "Call Sentry.init as early as possible, before the rest of your app loads. Uncaught errors and unhandled promise rejections are reported automatically. tracesSampleRate sets the share of page loads and navigations recorded for performance (1.0 = all); release and environment let you filter issues in Faultline.",
      },
      { title: "Send a test error", body: "Run this once. The error shows up within seconds in the project's issue stream in Faultline." },
      {
        title: "Upload source maps (optional)",
        body: "So stack traces show your original code, upload the source maps of each build with sentry-cli, using the same release as in Sentry.init. SENTRY_AUTH_TOKEN is a Faultline personal API token, created under Account → API tokens. Instead of --url you can set SENTRY_URL=https://faultline.example.com; --org and --project are the slugs of your Faultline organisation and project.",
      },
    ],
  },
  nextjs: {
    title: "Next.js",
    summary: "Capture errors and traces on the client, the server and the edge with @sentry/nextjs.",
    steps: [
      { title: "Install the SDK", body: "Add the official Next.js SDK to your app." },
      {
        title: "Initialise it in the browser",
        body: "Create instrumentation-client.ts in the project root (or in src/). Ad blockers may drop requests to another host: the SDK's tunnel option can point at a same-origin route that forwards events to Faultline.",
      },
      {
        title: "Initialise it on the server",
        body: "Put the server init in sentry.server.config.ts and load it from register() in instrumentation.ts. onRequestError reports errors thrown in server components, route handlers and middleware.",
      },
      {
        title: "Wrap your Next.js config",
        body: "withSentryConfig instruments the build and uploads source maps to Faultline. From SDK v11 import it from @sentry/nextjs/config; older versions import it from @sentry/nextjs. SENTRY_AUTH_TOKEN is a Faultline personal API token from Account → API tokens; org and project are the slugs of your Faultline organisation and project.",
      },
      { title: "Send a test error", body: "Add this button to a page and click it. The error appears in the project's issue stream in Faultline." },
    ],
  },
  node: {
    title: "Node.js",
    summary: "Report errors and traces from Node.js services with @sentry/node.",
    steps: [
      { title: "Install the SDK", body: "Add the official Node.js SDK." },
      {
        title: "Initialise it before anything else",
        body: "The SDK must run before your other imports so it can instrument them. Put Sentry.init in its own file and load it with node --import ./instrument.mjs; with CommonJS, require it on the first line of your entry file. tracesSampleRate sets the share of requests recorded for performance.",
      },
      {
        title: "Send a test error",
        body: "Capture an error and flush before the process exits. It shows up in the project's issue stream in Faultline.",
      },
      {
        title: "Frameworks (optional)",
        body: "Express, Fastify, Koa and others are instrumented automatically. With Express, register the error handler after all routes so errors raised in handlers are reported.",
      },
    ],
  },
  python: {
    title: "Python",
    summary: "Report exceptions and traces from Python apps, including Django, Flask and FastAPI, with sentry-sdk.",
    steps: [
      { title: "Install the SDK", body: "Add the official Python SDK to your environment or requirements file." },
      {
        title: "Initialise it",
        body: "Call sentry_sdk.init as early as possible: in settings.py for Django, or before you create the Flask or FastAPI app. Integrations for installed frameworks switch on by themselves. traces_sample_rate sets the share of requests recorded for performance; release and environment let you filter issues in Faultline.",
      },
      {
        title: "Send a test error",
        body: "Put this line anywhere in your code and run it. The ZeroDivisionError appears in the project's issue stream in Faultline.",
      },
    ],
  },
  ruby: {
    title: "Ruby",
    summary: "Report exceptions from Ruby and Rails apps with sentry-ruby, or the legacy sentry-raven gem.",
    steps: [
      { title: "Install the gem", body: "Add sentry-ruby to your Gemfile, plus sentry-rails for Rails apps, and run bundle install." },
      {
        title: "Initialise it",
        body: "In Rails, put this in an initializer; otherwise run it when your app starts. traces_sample_rate sets the share of requests recorded for performance.",
      },
      { title: "Send a test error", body: "Run this once. The ZeroDivisionError appears in the project's issue stream in Faultline." },
      {
        title: "Still on sentry-raven?",
        body: "The old sentry-raven gem works with Faultline as well: configure it with the same DSN. For new code, prefer sentry-ruby.",
      },
    ],
  },
  go: {
    title: "Go",
    summary: "Report errors and panics from Go programs with sentry-go.",
    steps: [
      { title: "Install the SDK", body: "Add the official Go SDK to your module." },
      {
        title: "Initialise it",
        body: "Call sentry.Init at the start of main. Events are sent in the background, so defer sentry.Flush to send what is queued before the program exits. TracesSampleRate sets the share of transactions recorded for performance.",
      },
      { title: "Send a test error", body: "Capture an error once. It shows up in the project's issue stream in Faultline." },
      {
        title: "HTTP servers (optional)",
        body: "For net/http, wrap your handlers with the sentryhttp middleware: it reports panics and records a transaction for each request. Integrations for Gin, Echo, Fiber and others work the same way.",
      },
    ],
  },
  php: {
    title: "PHP",
    summary: "Report exceptions and traces from PHP apps with sentry/sentry.",
    steps: [
      { title: "Install the SDK", body: "Add the official PHP SDK with Composer." },
      {
        title: "Initialise it",
        body: "Call \\Sentry\\init as early as possible, right after the Composer autoloader. Uncaught exceptions and fatal errors are then reported automatically. traces_sample_rate sets the share of requests recorded for performance.",
      },
      { title: "Send a test error", body: "Capture an exception once. It shows up in the project's issue stream in Faultline." },
      {
        title: "Laravel and Symfony (optional)",
        body: "For Laravel use sentry/sentry-laravel and set the DSN in .env as shown; for Symfony use sentry/sentry-symfony with SENTRY_DSN. Both use the same Faultline DSN.",
      },
    ],
  },
  java: {
    title: "Java",
    summary: "Report exceptions and traces from Java apps with io.sentry:sentry.",
    steps: [
      {
        title: "Add the dependency (Maven)",
        body: "Add the SDK to your pom.xml. Replace SENTRY_VERSION with the current io.sentry:sentry release from Maven Central. For Spring Boot, use io.sentry:sentry-spring-boot-starter-jakarta and set sentry.dsn in application.properties instead.",
      },
      { title: "…or with Gradle", body: "With Gradle, add this line to the dependencies block of build.gradle." },
      {
        title: "Initialise it",
        body: "Call Sentry.init when your app starts. Uncaught exceptions are reported automatically. setTracesSampleRate sets the share of transactions recorded for performance.",
      },
      { title: "Send a test error", body: "Capture an exception once. It shows up in the project's issue stream in Faultline." },
    ],
  },
  dotnet: {
    title: ".NET",
    summary: "Report exceptions and traces from .NET apps with the Sentry NuGet package.",
    steps: [
      { title: "Install the package", body: "Add the official Sentry package from NuGet." },
      {
        title: "Initialise it",
        body: "Call SentrySdk.Init when your app starts and keep the returned object until it exits: disposing it at the end of the using block sends queued events. TracesSampleRate sets the share of transactions recorded for performance.",
      },
      { title: "Send a test error", body: "Capture an exception once. It shows up in the project's issue stream in Faultline." },
      {
        title: "ASP.NET Core (optional)",
        body: "For ASP.NET Core, install Sentry.AspNetCore and call UseSentry on the web host instead of SentrySdk.Init. Errors in requests are then reported automatically.",
      },
    ],
  },
};

const DE: Record<GuideSlug, GuideText> = {
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
