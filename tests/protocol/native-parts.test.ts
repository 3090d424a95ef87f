// sentry-native's breadcrumb files merged as Relay merges them (relay-server services/processor/event.rs, its tests
// test_breadcrumbs_truncation, test_breadcrumbs_order_with_none, test_breadcrumbs_reversed_with_none,
// test_empty_breadcrumbs_item), and msgpack's shape measured before decoding (utils/rmp.rs MAX_DEPTH).
import assert from "node:assert/strict";
import { test } from "node:test";
import { encode } from "@msgpack/msgpack";
import { mergeBreadcrumbFiles, mergeNativeParts } from "../../src/protocol/native-parts";
import { msgpackShape } from "../../src/protocol/msgpack-shape";

const d1 = "2019-10-10T12:10:10Z";
const d2 = "2019-10-11T12:10:10Z";
const crumb = (message: string, timestamp?: string) => (timestamp ? { message, timestamp } : { message });
const file = (...crumbs: object[]) => Buffer.concat(crumbs.map((c) => Buffer.from(encode(c))));
const messages = (crumbs: Record<string, unknown>[]) => crumbs.map((c) => c.message);

test("truncation: the newest max(len1, len2) of both files", () => {
  assert.deepEqual(messages(mergeBreadcrumbFiles([crumb("crumb1")], [crumb("crumb2"), crumb("crumb3")])), ["crumb2", "crumb3"]);
});

test("order by each file's last timestamped breadcrumb; a file without one sorts first", () => {
  assert.deepEqual(messages(mergeBreadcrumbFiles([crumb("none"), crumb("d1", d1)], [crumb("d2", d2)])), ["d1", "d2"]);
  assert.deepEqual(messages(mergeBreadcrumbFiles([crumb("d2", d2)], [crumb("none"), crumb("d1", d1)])), ["d1", "d2"]);
  assert.deepEqual(messages(mergeBreadcrumbFiles([crumb("no time")], [crumb("d1", d1)])), ["d1"]);
});

test("empty parts are no event and no breadcrumbs, without notes", () => {
  const empty = { bytes: Buffer.alloc(0), size: 0 };
  const merged = mergeNativeParts({ level: "fatal" }, [
    { field: "__sentry-event", ...empty },
    { field: "__sentry-breadcrumb1", ...empty },
    { field: "__sentry-breadcrumb2", ...empty },
  ]);
  assert.deepEqual(merged.event, { level: "fatal" });
  assert.deepEqual(merged.notes, []);
});

test("the parts over the form: the attached event's values win, maps merge, nil leaves the form's value", () => {
  const merged = mergeNativeParts({ release: "form@1", extra: { prod: "app" }, environment: "prod" }, [
    { field: "__sentry-event", bytes: Buffer.from(encode({ release: "native@2", extra: { k: 1 }, environment: null, event_id: "abc" })), size: 1 },
    { field: "__sentry-breadcrumb2", bytes: file(crumb("x", d1)), size: 1 },
  ]);
  assert.deepEqual(merged.event, {
    release: "native@2",
    extra: { prod: "app", k: 1 },
    environment: "prod",
    event_id: "abc",
    breadcrumbs: { values: [crumb("x", d1)] },
  });
  assert.equal(merged.attachedEventId, "abc");
});

test("msgpack's shape: depth past the bound, values past the bound, containers declaring more than the bytes hold", () => {
  const nested = (depth: number) => Buffer.concat([Buffer.alloc(depth, 0x91), Buffer.from([0x90])]);
  assert.deepEqual(msgpackShape(nested(128), 128, 1000), { ok: true });
  assert.equal(msgpackShape(nested(129), 128, 1000).ok, false);
  assert.equal(msgpackShape(Buffer.alloc(1001, 0x90), 128, 1000).ok, false);
  assert.equal(msgpackShape(Buffer.from([0xdd, 0, 0, 0, 9, 1, 2]), 128, 1000).ok, false);
  assert.deepEqual(msgpackShape(Buffer.from(encode({ a: [1, { b: "c" }], d: 1.5, e: null })), 128, 1000), { ok: true });
  assert.deepEqual(msgpackShape(file(crumb("a", d1), crumb("b")), 128, 1000), { ok: true });
});
