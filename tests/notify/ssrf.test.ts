// Faultline never sends to loopback, private or link-local addresses on a user's behalf unless the instance settings
// allow the host: refused at send time (and by checkTargetUrl, the save-time check), allowed when listed. Port 9746.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { getNotificationAllowedHosts, setNotificationAllowedHosts } from "../../src/core/notification-hosts";
import { isHostName, parseAllowedHosts } from "../../src/notify/allowed-hosts";
import { validateTargetUrl } from "../../src/notify";
import { checkTargetUrl, describeTarget } from "../../src/notify/http";
import { UNAVAILABLE_MAILER } from "../../src/notify/mailer";
import { createSender } from "../../src/notify/sender";
import { createStore } from "../../src/storage/kysely";
import { SLACK_ACTION, WEBHOOK_ACTION } from "../../src/storage/notification-ports";
import { outcome } from "../helpers/core";
import { type Receiver, type Seeded, type TestDb, enqueue, notification, receiver, seed, settle, testDb } from "./fixtures";

let t: TestDb;
let s: Seeded;
let hook: Receiver;

before(async () => {
  t = await testDb("sqlite");
  s = await seed(t.db);
  hook = await receiver(9746);
});
after(async () => {
  await hook.close();
  await t.close();
});

const runner = () => createSender({ store: t.store, mailer: UNAVAILABLE_MAILER, log: () => undefined, requestTimeoutMs: 2000 });

test("issue 17 delivery: webhooks to 127.0.0.1, to localhost and to 169.254.169.254 are refused at send time", async () => {
  await t.store.setAllowedHostsSetting("");
  const rows = [
    notification(s, { id: WEBHOOK_ACTION, service: "webhooks", url: hook.url() }),
    notification(s, { id: SLACK_ACTION, webhookUrl: "http://localhost:9746/hook" }),
    notification(s, { id: WEBHOOK_ACTION, service: "webhooks", url: "http://169.254.169.254/latest/meta-data/" }),
    notification(s, { id: WEBHOOK_ACTION, service: "webhooks", url: "http://[::ffff:127.0.0.1]:9746/hook" }),
  ];
  const ids = await enqueue(t.db, rows);
  const r = runner();
  for (const id of ids) {
    assert.equal(await settle(t.store, id, () => r.runOnce()), "failed");
    const n = await t.store.getNotification(id);
    assert.match(n!.lastError!, /^refused: .* resolves to a non-public address/);
    const [attempt] = await t.store.listNotificationAttempts(id);
    assert.equal(attempt!.ok, false);
    assert.equal(attempt!.statusCode, null);
  }
  assert.equal(hook.receipts.length, 0, "nothing reached the receiver");
});

test("issue 17 delivery: hosts listed in the instance settings are allowed despite private addresses", async () => {
  await t.store.setAllowedHostsSetting("127.0.0.1\nlocalhost");
  const rows = [
    notification(s, { id: WEBHOOK_ACTION, service: "webhooks", url: hook.url("/by-address") }),
    notification(s, { id: SLACK_ACTION, webhookUrl: "http://localhost:9746/by-name" }),
  ];
  const ids = await enqueue(t.db, rows);
  const r = runner();
  for (const id of ids) assert.equal(await settle(t.store, id, () => r.runOnce()), "sent");
  assert.deepEqual(hook.receipts.map((x) => x.path).sort(), ["/by-address", "/by-name"]);
  await t.store.setAllowedHostsSetting("");
});

test("issue 17 delivery: checkTargetUrl refuses what sending refuses, for the rules' save-time check", async () => {
  const refused = async (url: string, allowed: string[] = []) => {
    const c = await checkTargetUrl(url, allowed);
    return c.ok ? "ok" : c.reason;
  };
  assert.match(await refused("http://127.0.0.1:9746/hook"), /non-public address/);
  assert.match(await refused("http://169.254.169.254/"), /non-public address/);
  assert.match(await refused("http://localhost/"), /non-public address/);
  assert.match(await refused("http://10.1.2.3/"), /non-public address/);
  assert.match(await refused("ftp://example.com/"), /only http and https/);
  assert.match(await refused("https://user:pw@hooks.example.com/"), /credentials/);
  assert.match(await refused("not a url"), /not a valid URL/);
  assert.equal(await refused("http://127.0.0.1:9746/hook", ["127.0.0.1"]), "ok");
  assert.equal(await refused("http://LOCALHOST/", ["localhost"]), "ok");
  assert.equal(await refused("https://8.8.8.8/"), "ok", "a public address");
});

test("issue 17 delivery: the allowed-hosts setting is read one host per line, commas and spaces too", () => {
  assert.deepEqual(parseAllowedHosts(" Chat.Intranet.example\n10.0.0.5, [::1]  chat.intranet.example\n"), ["chat.intranet.example", "10.0.0.5", "[::1]"]);
  assert.deepEqual(parseAllowedHosts(null), []);
  assert.ok(isHostName("chat.intranet.example") && isHostName("10.0.0.5") && isHostName("[::1]"));
  assert.ok(!isHostName("http://x") && !isHostName("a/b"));
});

test("issue 17 delivery: only superusers read and change the allowed hosts, and only host names or addresses are taken", async () => {
  const store = createStore(t.db);
  await t.db.kysely.updateTable("users").set({ is_superuser: 1 }).where("id", "=", s.users.owner).execute();
  const admin = (await store.getUserById(s.users.owner))!;
  const member = (await store.getUserById(s.users.dev))!;
  assert.equal(await outcome(() => setNotificationAllowedHosts({ store, actor: { user: member } }, { hosts: "127.0.0.1" })), "forbidden");
  assert.equal(await outcome(() => getNotificationAllowedHosts({ store, actor: { user: member } })), "forbidden");
  const su = { store, actor: { user: admin } };
  assert.equal(await outcome(() => setNotificationAllowedHosts(su, { hosts: "http://evil.example/x" })), "bad_request");
  assert.deepEqual(await setNotificationAllowedHosts(su, { hosts: "Chat.Intranet.example, 10.0.0.5" }), ["chat.intranet.example", "10.0.0.5"]);
  assert.deepEqual(await getNotificationAllowedHosts(su), ["chat.intranet.example", "10.0.0.5"]);
  assert.deepEqual(parseAllowedHosts(await t.store.getAllowedHostsSetting()), ["chat.intranet.example", "10.0.0.5"], "what the sender reads");
  assert.deepEqual(await setNotificationAllowedHosts(su, {}), []);
});

test("issue 17 delivery: the history names a target without its secrets (query, webhook tokens in the path)", () => {
  assert.equal(
    describeTarget("https://hooks.slack.com/services/T0000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX"),
    "https://hooks.slack.com/services/T0000000/B00000000/XXXX…",
  );
  assert.equal(
    describeTarget("https://discord.com/api/webhooks/123456789012345678/abcdefghijklmnopqrstuvwxyz0123456789?wait=true"),
    "https://discord.com/api/webhooks/1234…/abcd…",
  );
  assert.equal(
    describeTarget("https://prod-1.westus.logic.azure.com/workflows/abc/triggers/manual/paths/invoke?api-version=2016-06-01&sig=SECRET"),
    "https://prod-1.westus.logic.azure.com/workflows/abc/triggers/manual/paths/invoke",
  );
});

test("issue 17 delivery: validateTargetUrl checks against the instance's allowed hosts", async () => {
  await t.store.setAllowedHostsSetting("");
  assert.equal((await validateTargetUrl(t.store, hook.url())).ok, false);
  await t.store.setAllowedHostsSetting("127.0.0.1");
  assert.equal((await validateTargetUrl(t.store, hook.url())).ok, true);
  await t.store.setAllowedHostsSetting("");
});
