// Types of own-sourcemaps-plugin.mjs, for the TypeScript that imports it (tests/core/own-sourcemaps.test.ts).
export declare const OWN_SOURCEMAPS_DIR: string;
export declare function injectAndHideSourceMaps(outDir: string, maps: string[]): Promise<void>;
export declare class OwnSourceMapsPlugin {
  apply(compiler: unknown): void;
}
