// Unit tests for the frame and stacktrace rules of Faultline's port of Sentry's grouping
// (newstyle:2023-01-11): in_app defaults, built-in stack trace rules, frame components per
// platform, context lines, JavaScript frame drops and recursion.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { test } from "node:test";
import { groupEvent, iterValues, type GroupingComponent } from "../../src/digest/grouping";
import { globMatch } from "../../src/digest/grouping/enhancements/glob";

const md5 = (...parts: string[]): string => createHash("md5").update(parts.join("")).digest("hex");

function stack(platform: string, frames: unknown[]): unknown {
  return { platform, stacktrace: { frames } };
}

function systemHash(event: unknown): string | null {
  return groupEvent(event).variants.system?.hash ?? null;
}

function find(c: GroupingComponent, id: string): GroupingComponent[] {
  const out: GroupingComponent[] = [];
  for (const v of c.values) {
    if (typeof v === "string") continue;
    if (v.id === id) out.push(v);
    out.push(...find(v, id));
  }
  return out;
}

test("a frame without in_app counts as not in app: no app hash, the system hash stands", () => {
  const r = groupEvent(stack("python", [{ module: "app.views", function: "index" }]));
  assert.equal(r.variants.app?.hash, null);
  assert.equal(r.variants.system?.hash, md5("app.views", "index"));
  assert.deepEqual(r.hashes, [md5("app.views", "index")]);
});

test("in-app frames give an app hash of their own; the system variant keeps all frames", () => {
  const r = groupEvent(
    stack("python", [
      { module: "django.core", function: "run", in_app: false },
      { module: "app.views", function: "index", in_app: true },
    ]),
  );
  assert.equal(r.variants.app?.hash, md5("app.views", "index"));
  assert.equal(r.variants.system?.hash, md5("django.core", "run", "app.views", "index"));
  assert.deepEqual(r.hashes, [md5("app.views", "index"), md5("django.core", "run", "app.views", "index")]);
});

test("the system variant yields when the app variant hashes the same", () => {
  const r = groupEvent(stack("python", [{ module: "app.views", function: "index", in_app: true }]));
  assert.equal(r.variants.app?.hash, md5("app.views", "index"));
  assert.equal(r.variants.system?.hash, null);
  assert.match(
    r.variants.system?.component.values[0] && typeof r.variants.system.component.values[0] !== "string"
      ? (r.variants.system.component.values[0].hint ?? "")
      : "",
    /hash matches app variant/,
  );
});

test("built-in rules move node_modules, site-packages, vendor and go/pkg/mod frames out of app", () => {
  for (const [platform, path] of [
    ["node", "/srv/app/node_modules/express/lib/router.js"],
    ["python", "/usr/lib/python3/site-packages/django/core.py"],
    ["python", "/usr/lib/python3/dist-packages/django/core.py"],
    ["php", "/srv/app/vendor/laravel/framework/src/Router.php"],
    ["go", "/root/go/pkg/mod/github.com/x/y.go"],
    ["javascript", "https://unpkg.com/react@18/umd/react.js"],
  ] as const) {
    const r = groupEvent(stack(platform, [{ abs_path: path, function: "f", in_app: true }]));
    assert.equal(r.variants.app?.hash, null, `${path} should not be in app`);
    assert.notEqual(r.variants.system?.hash, null, path);
  }
});

test("glob paths: ** crosses slashes, * does not, relative paths also match with a leading slash", () => {
  assert.ok(globMatch("/a/node_modules/b/c.js", "**/node_modules/**", { doublestar: true }));
  assert.ok(globMatch("/node_modules/c.js", "**/node_modules/**", { doublestar: true }));
  assert.ok(!globMatch("/a/b.js", "*.js", { doublestar: true }));
  assert.ok(globMatch("b.js", "*.js", { doublestar: true }));
  assert.ok(globMatch("[Sentry foo]", "?[[]Sentry*", {}) === false);
  assert.ok(globMatch("-[SentryClient x]", "?[[]Sentry*", {}));
});

test("transpiler modules and node internals are ignored for grouping (-group) even in the system variant", () => {
  const r = groupEvent(
    stack("node", [
      { module: "@babel/runtime/helpers/asyncToGenerator", function: "step" },
      { function: "processTicksAndRejections", filename: "node:internal/process/task_queues" },
      { module: "app/handler", function: "handle", in_app: true },
    ]),
  );
  assert.equal(r.variants.app?.hash, md5("app/handler", "handle"));
  const frames = find(r.variants.system!.component, "frame");
  assert.equal(frames.length, 3);
  assert.deepEqual(
    frames.map((f) => f.contributes),
    [false, false, true],
  );
  assert.match(frames[0]?.hint ?? "", /ignored by stack trace rule \(module:@babel\/\*\* -app -group\)/);
});

test("filename: the lowercased basename, not used when the module contributes or the path is a URL", () => {
  assert.equal(systemHash(stack("go", [{ filename: "C:\\Src\\Main.GO", function: "main" }])), md5("main.go", "main"));
  assert.equal(systemHash(stack("go", [{ filename: "a/b.go", module: "pkg/b", function: "f" }])), md5("pkg/b", "f"));
  assert.equal(systemHash(stack("javascript", [{ abs_path: "http://x.io/a.js", filename: "/a.js", function: "f" }])), md5("f"));
  assert.equal(systemHash(stack("javascript", [{ filename: "<anonymous>", abs_path: "x", function: "f" }])), md5("f"));
});

test("javascript functions are trimmed to the last dotted part; unknown names are ignored", () => {
  assert.equal(systemHash(stack("javascript", [{ filename: "a.js", function: "Object.foo" }])), md5("a.js", "foo"));
  for (const name of ["?", "<anonymous>", "Anonymous function", "<anonymous function>", "foo/<"]) {
    const r = groupEvent(
      stack("javascript", [
        { filename: "a.js", function: name },
        { filename: "b.js", function: "g" },
      ]),
    );
    assert.equal(r.variants.system?.hash, md5("a.js", "b.js", "g"), name);
  }
});

test("javascript: a source-mapped frame with a usable context line groups by the line, not the function", () => {
  const frame = { filename: "app.js", abs_path: "webpack:///app.js", function: "render", context_line: "  foo();", data: { sourcemap: "x.map" } };
  assert.equal(systemHash(stack("javascript", [frame])), md5("app.js", "foo();"));
  const { data: _data, ...noMap } = frame;
  assert.equal(systemHash(stack("javascript", [noMap])), md5("app.js", "render", "foo();"));
});

test("ruby blocks and erb suffixes, java lambdas and codegen markers are normalized", () => {
  assert.equal(systemHash(stack("ruby", [{ filename: "a.rb", function: "block in foo" }])), md5("a.rb", "block"));
  assert.equal(systemHash(stack("ruby", [{ filename: "a.rb", function: "_x_erb__1234_5678" }])), md5("a.rb", "_x_erb"));
  assert.equal(systemHash(stack("java", [{ module: "a.B", function: "lambda$run$0" }])), md5("a.B"));
  assert.equal(systemHash(stack("java", [{ module: "a.B$$EnhancerByCGLIB$$abc123", function: "f" }])), md5("a.B$$EnhancerByCGLIB$$<auto>", "f"));
});

test("context lines: whitespace collapsed, only for context-line platforms, dropped when over 120 characters", () => {
  assert.equal(systemHash(stack("python", [{ filename: "a.py", function: "f", context_line: "\tx  =\t1 " }])), md5("a.py", "f", "x = 1"));
  assert.equal(systemHash(stack("go", [{ filename: "a.go", function: "f", context_line: "x := 1" }])), md5("a.go", "f"));
  const long = "x".repeat(121);
  assert.equal(systemHash(stack("python", [{ filename: "a.py", function: "f", context_line: long }])), md5("a.py", "f"));
  assert.equal(systemHash(stack("python", [{ filename: "a.py", function: "f", context_line: "y".repeat(120) }])), md5("a.py", "f", "y".repeat(120)));
});

test("javascript: a context line from a URL origin without a function is dropped", () => {
  const frames = [
    { abs_path: "https://x.io/a.js", filename: "/a.js", context_line: "boom()" },
    { abs_path: "https://x.io/b.js", filename: "/b.js", function: "g", context_line: "go()" },
  ];
  assert.equal(systemHash(stack("javascript", frames)), md5("g", "go()"));
});

test("javascript: eval and native-code frames are dropped whole", () => {
  for (const drop of [
    { function: "eval", filename: "a.js" },
    { abs_path: "[native code]", function: "forEach" },
    { abs_path: "eval code", function: "x" },
  ]) {
    const r = groupEvent(stack("javascript", [drop, { filename: "b.js", function: "g" }]));
    assert.equal(r.variants.system?.hash, md5("b.js", "g"), JSON.stringify(drop));
  }
});

test("javascript: a single frame without a function from a URL is ignored (fallback hash)", () => {
  const r = groupEvent(stack("javascript", [{ abs_path: "https://x.io/a.js", filename: "a.js" }]));
  assert.equal(r.variants.system?.hash, null);
  assert.deepEqual(r.hashes, [md5()]);
  assert.equal(r.variants.fallback?.hash, "d41d8cd98f00b204e9800998ecf8427e");
});

test("recursion: a frame identical to the one before does not contribute", () => {
  const f = { filename: "a.py", function: "walk", lineno: 3 };
  const r = groupEvent(stack("python", [f, f, f, { filename: "a.py", function: "walk", lineno: 4 }]));
  assert.equal(r.variants.system?.hash, md5("a.py", "walk", "a.py", "walk"));
  assert.deepEqual(iterValues(r.variants.system!.component), ["a.py", "walk", "a.py", "walk"]);
});
