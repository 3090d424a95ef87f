// Code samples of the SDK guides, one entry per step (undefined = a step without code). Identical in every locale;
// every sample uses DSN_PLACEHOLDER, which the docs page swaps for a project's DSN.
import { type Code, DSN_PLACEHOLDER, type GuideSlug } from "./types";

const FAULTLINE_URL = "https://faultline.example.com";

/** Code per guide, one entry per step (undefined = step without code). Identical in every locale. */
export const CODE: Record<GuideSlug, (Code | undefined)[]> = {
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
