// English text of the SDK guides.
import type { GuideSlug, GuideText } from "./types";

export const EN: Record<GuideSlug, GuideText> = {
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
