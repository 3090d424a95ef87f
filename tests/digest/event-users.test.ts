// A person's data (issue 18): the user parts the digest keeps for each event (digest/event-users.ts), from events as
// SDKs send them, through the same normalization; the client's address stands in for "{{auto}}".
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { digestRows } from "../../src/digest/items";
import { userParts } from "../../src/digest/event-users";

let ids = 0;
async function digested(payload: Record<string, unknown>, meta: Record<string, unknown> = {}) {
  const eventId = (++ids).toString(16).padStart(32, "0");
  const rows = [
    {
      kind: "item" as const,
      id: ids,
      projectId: 1,
      keyId: 1,
      receivedAt: 1_767_225_600_000,
      itemType: "event",
      eventId,
      headers: "{}",
      meta: JSON.stringify(meta),
      payload: Buffer.from(JSON.stringify(payload)),
    },
  ];
  return (await digestRows(rows)).events[0]!;
}

describe("issue 18 personal data: the user parts of a digested event", () => {
  test("id (a number too), e-mail, username and IP address, as sent; the user key beside them", async () => {
    const e = await digested({ message: "x", user: { id: 42, email: "ann@example.com", username: "ann", ip_address: "192.0.2.1", name: "Ann" } });
    assert.deepEqual(e.userParts, [
      ["id", "42"],
      ["email", "ann@example.com"],
      ["username", "ann"],
      ["ip", "192.0.2.1"],
    ]);
    assert.equal(e.userKey, "id:42");
  });

  test("{{auto}} becomes the client's address, which is then what the event is found by", async () => {
    const e = await digested({ message: "x", platform: "javascript", user: { ip_address: "{{auto}}" } }, { client_ip: "198.51.100.7" });
    assert.deepEqual(e.userParts, [["ip", "198.51.100.7"]]);
  });

  test("no user, or a user of the wrong shape, gives nothing; long values are cut to the searchable length", () => {
    assert.deepEqual(userParts({}), []);
    assert.deepEqual(userParts({ user: "ann" }), []);
    assert.deepEqual(userParts({ user: [1] }), []);
    assert.deepEqual(userParts({ user: { id: Number.NaN, email: { a: 1 }, username: "" } }), []);
    assert.equal(userParts({ user: { id: "x".repeat(500) } })[0]![1].length, 200);
  });
});
