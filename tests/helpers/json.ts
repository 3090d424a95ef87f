// JSON a test reads from a response, a webhook or a scrubbed event, whose shape the test itself asserts field by
// field: typing every such document again would restate the types of the code under test, and a typo in a path still
// fails the assertion that reads it.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the one place tests name JSON of a shape they check
export type TestJson = any;
