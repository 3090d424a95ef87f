// Types of payloads.mjs, for the TypeScript tests that build on its realistic SDK payloads (tests/hostile).
type Rng = () => number;
type Envelope = [Record<string, unknown>, [Record<string, unknown>, unknown][]];
export declare const EID: string;
export declare const SID: string;
export declare function hex(rng: Rng, n: number): string;
export declare function browserError(rng: Rng, key: string, t: number): Envelope;
export declare function pythonError(rng: Rng, key: string, t: number): Record<string, unknown>;
export declare function transaction(rng: Rng, key: string, t: number, python: boolean, nSpans?: number): Envelope;
export declare function streamedSpans(rng: Rng, key: string, t: number, nSpans?: number): Envelope;
export declare function session(rng: Rng, key: string, t: number, python: boolean): Envelope;
export declare function clientReport(rng: Rng, key: string, t: number): Envelope;
export declare function logBatch(rng: Rng, key: string, t: number): Envelope;
export declare function checkIn(rng: Rng, key: string, t: number): Envelope;
