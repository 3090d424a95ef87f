// Types of mix.mjs, for the TypeScript tests that use its seeded PRNG (tests/hostile).
export declare function prng(seed: number): () => number;
