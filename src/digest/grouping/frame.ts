// The frame component `[module, filename, function, context-line]` of the newstyle strategies
// (getsentry/sentry src/sentry/grouping/strategies/newstyle.py: `frame`, `get_module_component`,
// `get_filename_component`, `get_function_component`, `get_contextline_component`).
import { component, update, type GroupingComponent } from "./component";
import type { GFrame } from "./normalize";
import { behaviorFamily, hasUrlOrigin } from "./platform";

export interface FrameOptions {
  javascriptFuzzing: boolean;
  contextlinePlatforms: ReadonlySet<string>;
  phpDetectAnonymousClasses: boolean;
}

const RUBY_ERB = /__\d{4,}_\d{4,}$/;
const JAVA_REFLECT = /(sun\.reflect\.Generated(?:Serialization)?ConstructorAccessor)\d+/g;
const JAVA_CGLIB = /(\$\$[\w_]+?CGLIB\$\$)[a-fA-F0-9]+(_[0-9]+)?/g;
const JAVA_ASSIST = /(\$\$_javassist)(?:_seam)?(?:_[0-9]+)?/g;
const CLOJURE = /(\$fn__)\d+/g;

function filenameComponent(absPath: string | null, filename: string | null, platform: string | null, allowFile: boolean): GroupingComponent {
  if (filename === null) return component("filename");
  const base = (filename.split(/[/\\]/).pop() ?? "").toLowerCase();
  const c = component("filename", { values: [base] });
  if (hasUrlOrigin(absPath, allowFile)) update(c, { contributes: false, hint: "ignored because frame points to a URL" });
  else if (base === "<anonymous>") update(c, { contributes: false, hint: "anonymous filename discarded" });
  else if (base === "[native code]") update(c, { contributes: false, hint: "native code indicated by filename" });
  else if (platform === "java") {
    const cleaned = base.replace(JAVA_ASSIST, "$1<auto>");
    if (cleaned !== base) update(c, { values: [cleaned], hint: "cleaned javassist parts" });
  }
  return c;
}

function moduleComponent(absPath: string | null, module: string | null, platform: string | null): GroupingComponent {
  if (module === null) return component("module");
  const c = component("module", { values: [module] });
  if (platform === "javascript" && module.includes("/") && absPath && absPath.endsWith(module)) {
    update(c, { contributes: false, hint: "ignored bad javascript module" });
  } else if (platform === "java") {
    if (module.includes("$$Lambda$")) update(c, { contributes: false, hint: "ignored java lambda" });
    if (module.slice(0, 35) === "sun.reflect.GeneratedMethodAccessor") {
      update(c, { values: ["sun.reflect.GeneratedMethodAccessor"], hint: "removed reflection marker" });
    } else if (module.slice(0, 44) === "jdk.internal.reflect.GeneratedMethodAccessor") {
      update(c, { values: ["jdk.internal.reflect.GeneratedMethodAccessor"], hint: "removed reflection marker" });
    } else {
      const cleaned = module.replace(JAVA_REFLECT, "$1<auto>").replace(JAVA_CGLIB, "$1<auto>").replace(JAVA_ASSIST, "$1<auto>").replace(CLOJURE, "$1<auto>");
      if (cleaned !== module) update(c, { values: [cleaned], hint: "removed codegen marker" });
    }
  }
  return c;
}

function functionComponent(f: GFrame, platform: string | null, opts: FrameOptions, contextLineAvailable: boolean): GroupingComponent {
  // Sentry prefers the raw function name for C# only (its `function` is trimmed at ingest).
  const func = platform === "csharp" ? (f.raw_function ?? f.function) : (f.function ?? f.raw_function);
  if (func === null) return component("function");
  const c = component("function", { values: [func] });
  const family = behaviorFamily(platform);
  if (platform === "ruby") {
    if (func.startsWith("block ")) update(c, { values: ["block"], hint: "ruby block" });
    else {
      const cleaned = func.replace(RUBY_ERB, "");
      if (cleaned !== func) update(c, { values: [cleaned], hint: "removed generated erb template suffix" });
    }
  } else if (platform === "php") {
    if (func.startsWith("[Anonymous") || func.startsWith("class@anonymous\x00")) {
      update(c, { contributes: false, hint: "ignored anonymous function" });
    }
    if (opts.phpDetectAnonymousClasses && func.startsWith("class@anonymous")) {
      const i = func.lastIndexOf("::");
      const cleaned = i >= 0 ? func.slice(i + 2) : func;
      if (cleaned !== func) update(c, { values: [cleaned], hint: "anonymous class method" });
    }
  } else if (platform === "java") {
    if (func.startsWith("lambda$")) update(c, { contributes: false, hint: "ignored lambda function" });
  } else if (family === "native") {
    if (func === "<redacted>" || func === "<unknown>") update(c, { contributes: false, hint: "ignored unknown function" });
  } else if (opts.javascriptFuzzing && family === "javascript") {
    const trimmed = func.slice(func.lastIndexOf(".") + 1);
    if (trimmed !== func) update(c, { values: [trimmed], hint: "trimmed javascript function" });
    if (f.sourcemap && contextLineAvailable) {
      update(c, { contributes: false, hint: "ignored because sourcemap used and context line available" });
    }
  }
  return c;
}

/** Python's `str.split()` whitespace, joined back with single spaces. */
export function collapseWhitespace(s: string): string {
  return s
    .split(/[\s\x1c-\x1f\x85]+/)
    .filter((p) => p !== "")
    .join(" ");
}

function contextLineComponent(f: GFrame, platform: string | null): GroupingComponent {
  const line = collapseWhitespace(f.context_line ?? "");
  if (!line) return component("context-line");
  const c = component("context-line", { values: [line] });
  if ([...(f.context_line ?? "")].length > 120) {
    update(c, { contributes: false, hint: "discarded because line too long" });
  } else if (behaviorFamily(platform) === "javascript" && !f.function && hasUrlOrigin(f.abs_path)) {
    update(c, { contributes: false, hint: "discarded because from URL origin and no function" });
  }
  return c;
}

const LOW_QUALITY_JS_PATHS = new Set(["[native code]", "native code", "eval code", "<anonymous>"]);
const UNKNOWN_JS_FUNCTIONS = new Set(["?", "<anonymous function>", "<anonymous>", "Anonymous function"]);

export function frameComponent(f: GFrame, eventPlatform: string | null, opts: FrameOptions, isRecursion: boolean): GroupingComponent {
  const platform = f.platform ?? eventPlatform;
  const filename = filenameComponent(f.abs_path, f.filename, platform, opts.javascriptFuzzing);
  const moduleComp = moduleComponent(f.abs_path, f.module, platform);
  if (moduleComp.contributes && filename.contributes) {
    update(filename, { contributes: false, hint: "module takes precedence" });
  }
  const contextLine = platform !== null && opts.contextlinePlatforms.has(platform) ? contextLineComponent(f, platform) : null;
  const func = functionComponent(f, platform, opts, contextLine !== null && contextLine.contributes);
  const values = [moduleComp, filename, func];
  if (contextLine !== null) values.push(contextLine);
  const rv = component("frame", { values });

  if (opts.javascriptFuzzing && behaviorFamily(platform) === "javascript") {
    let name = f.raw_function ?? f.function;
    if (name !== null) name = name.slice(name.lastIndexOf(".") + 1);
    if (!name) update(func, { contributes: false });
    else if (UNKNOWN_JS_FUNCTIONS.has(name) || name.endsWith("/<")) {
      update(func, { contributes: false, hint: "ignored unknown function name" });
    }
    if (name === "eval" || (f.abs_path !== null && LOW_QUALITY_JS_PATHS.has(f.abs_path))) {
      update(rv, { contributes: false, hint: "ignored low quality javascript frame" });
    }
  }
  if (isRecursion) update(rv, { contributes: false, hint: "ignored due to recursion" });
  return rv;
}
