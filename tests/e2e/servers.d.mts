export declare const SERVERS: Record<
  "main" | "monitor" | "sso",
  { name: string; port: number; basePath: string; distDir: string; dataDir: string; url: string; origin: string }
>;
export declare const SMTP: { port: number; user: string; password: string; from: string; dir: string };
export declare const OIDC: {
  port: number;
  issuer: string;
  clientId: string;
  clientSecret: string;
  name: string;
  mainClientId: string;
  mainClientSecret: string;
};
export declare const smtpUrl: string;
export declare const LEGACY_UPLOADS_PORT: number;
export declare const CRASH_PORT: number;
export declare const SDK_PAGE_PORT: number;
