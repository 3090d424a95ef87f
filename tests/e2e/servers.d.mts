export declare const SERVERS: Record<"main" | "monitor", { name: string; port: number; basePath: string; distDir: string; dataDir: string; url: string; origin: string }>;
