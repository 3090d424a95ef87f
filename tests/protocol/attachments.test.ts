// What the intake reads of attachments and minidumps (issue 19): safe names and types whatever an SDK or a crash
// reporter sends, a real Crashpad minidump's header (tests/fixtures/minidumps/SOURCE.md) and truncated or hostile
// ones without a throw, and Relay's merge of multipart form fields into the minidump's event.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, test } from "node:test";
import fc from "fast-check";
import { attachmentTypeOf, isInlineImage, safeAttachmentName, safeContentType } from "../../src/protocol/attachments";
import { eventFromForm } from "../../src/protocol/form-event";
import { isMinidump, readMinidump } from "../../src/protocol/minidump";
import { minidumpEvent, NOT_SYMBOLICATED } from "../../src/protocol/minidump-event";

const DUMP = readFileSync(new URL("../fixtures/minidumps/simple-crashpad.dmp", import.meta.url));

describe("issue 19: attachment names, types and minidumps", () => {
  test("names lose folders, control characters, NUL and direction overrides; at most 255 characters", () => {
    assert.equal(safeAttachmentName("../../etc/passwd"), "passwd");
    assert.equal(safeAttachmentName("C:\\Users\\ann\\crash.dmp"), "crash.dmp");
    assert.equal(safeAttachmentName("a\u0000b\u202e.txt"), "ab.txt");
    assert.equal(safeAttachmentName(".."), "attachment");
    assert.equal(safeAttachmentName(42), "attachment");
    assert.equal(Array.from(safeAttachmentName("x".repeat(1000))).length, 255);
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 600 }), (raw) => {
        const name = safeAttachmentName(raw);
        return name.length > 0 && !/[\\/\u0000-\u001f]/.test(name) && name !== ".." && Array.from(name).length <= 255;
      }),
    );
  });

  test("content types are one lower-case type/subtype token; attachment types are Sentry's or event.attachment", () => {
    assert.equal(safeContentType("Image/PNG; charset=binary"), "image/png");
    assert.equal(safeContentType("text/html\r\nX-Evil: 1"), "application/octet-stream");
    assert.equal(safeContentType(undefined), "application/octet-stream");
    assert.equal(attachmentTypeOf("event.view_hierarchy"), "event.view_hierarchy");
    assert.equal(attachmentTypeOf("event.evil"), "event.attachment");
    assert.equal(isInlineImage("image/png"), true);
    assert.equal(isInlineImage("image/svg+xml"), false, "SVG is a document that may run script");
  });

  test("a real Crashpad minidump: signature, time, OS, CPU and the exception record", () => {
    assert.equal(isMinidump(DUMP), true);
    const info = readMinidump(DUMP)!;
    assert.equal(info.timestamp, 1608319181);
    assert.equal(info.os, "macOS");
    assert.equal(info.cpu, "amd64");
    assert.equal(info.osVersion, "10.15.7 19H114");
    assert.equal(info.exception?.address, "0x00007fff6f41333a");
  });

  test("truncated or corrupted minidumps yield what they can, never throw", () => {
    for (const n of [0, 3, 4, 31, 32, 40, 200, 1000]) readMinidump(DUMP.subarray(0, n));
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 512 }), fc.integer({ min: 0, max: 400 }), (noise, at) => {
        const corrupted = Buffer.from(DUMP.subarray(0, 600));
        corrupted.set(noise.subarray(0, Math.max(0, 600 - at)), at);
        readMinidump(corrupted);
        return true;
      }),
    );
    assert.equal(isMinidump(Buffer.from("ELF\u0001")), false);
  });

  test("form fields merge as Relay merges them: sentry JSON, sentry__N chunks, sentry[a][b], other fields as extra", () => {
    const event = eventFromForm([
      ["sentry", JSON.stringify({ release: "app@1", tags: { a: "1" } })],
      ["sentry[environment]", "production"],
      ["sentry[user][id]", "42"],
      ["sentry__2", '"b":"2"}}'],
      ["sentry__1", '{"tags":{'],
      ["prod", "ExampleApp"],
      ["__proto__", "x"],
      ["sentry[__proto__][polluted]", "yes"],
      ["sentry", "{not json"],
    ]);
    assert.deepEqual(event, {
      release: "app@1",
      tags: { a: "1", b: "2" },
      environment: "production",
      user: { id: "42" },
      extra: { prod: "ExampleApp", "sentry[__proto__][polluted]": "yes" },
    });
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    const crash = minidumpEvent(event, readMinidump(DUMP), "0".repeat(32));
    assert.equal(crash.platform, "native");
    assert.equal(crash.level, "fatal");
    const exc = (crash.exception as { values: { type: string; value: string; mechanism: { type: string; handled: boolean } }[] }).values[0]!;
    assert.match(exc.value, new RegExp(`^${NOT_SYMBOLICATED} \\(.+ at 0x00007fff6f41333a\\)$`));
    assert.deepEqual(exc.mechanism, { type: "minidump", handled: false, synthetic: true });
    assert.deepEqual((crash.contexts as Record<string, unknown>).os, { type: "os", name: "macOS", version: "10.15.7 19H114" });
  });
});
