// The shipped examples: the systemd unit passes `systemd-analyze verify`, the nginx site passes `nginx -t` (inside a
// minimal main configuration, its certificate paths pointed at a throwaway self-signed certificate). Each tool is also
// shown a broken copy and must refuse it, so a pass means the tool really read the file. Caddy is not packaged in
// Debian 12: contrib/Caddyfile has no syntax test.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, describe, test } from "node:test";

const work = mkdtempSync(path.join(tmpdir(), "faultline-contrib-"));
after(() => rmSync(work, { recursive: true, force: true }));

const which = (name: string, ...candidates: string[]): string | null => {
  const r = spawnSync("sh", ["-c", `command -v ${name}`], { encoding: "utf8" });
  if (r.status === 0 && r.stdout.trim()) return r.stdout.trim();
  return candidates.find((c) => existsSync(c)) ?? null;
};
const systemdAnalyze = which("systemd-analyze", "/usr/bin/systemd-analyze");
const nginx = which("nginx", "/usr/sbin/nginx");

function verifyUnit(file: string): { status: number | null; output: string } {
  const r = spawnSync(systemdAnalyze!, ["verify", file], { encoding: "utf8", timeout: 60_000 });
  return { status: r.status, output: `${r.stdout}${r.stderr}` };
}

function nginxTest(site: string): { status: number | null; output: string } {
  const dir = mkdtempSync(path.join(work, "nginx-"));
  const cert = spawnSync(
    "openssl",
    [
      "req",
      "-x509",
      "-newkey",
      "rsa:2048",
      "-nodes",
      "-days",
      "1",
      "-subj",
      "/CN=faultline.example.com",
      "-keyout",
      path.join(dir, "privkey.pem"),
      "-out",
      path.join(dir, "fullchain.pem"),
    ],
    { encoding: "utf8" },
  );
  assert.equal(cert.status, 0, cert.stderr);
  writeFileSync(path.join(dir, "faultline.conf"), site.replaceAll("/etc/letsencrypt/live/faultline.example.com/", `${dir}/`));
  writeFileSync(path.join(dir, "nginx.conf"), `pid ${dir}/nginx.pid;\nerror_log ${dir}/error.log;\nevents {}\nhttp {\n    include ${dir}/faultline.conf;\n}\n`);
  const r = spawnSync(nginx!, ["-t", "-c", path.join(dir, "nginx.conf"), "-p", `${dir}/`, "-e", path.join(dir, "startup.log")], {
    encoding: "utf8",
    timeout: 60_000,
  });
  return { status: r.status, output: `${r.stdout}${r.stderr}` };
}

describe("contrib examples", () => {
  test(
    "contrib/faultline.service passes systemd-analyze verify",
    { skip: systemdAnalyze ? false : "systemd-analyze is not installed (Debian: the systemd package)" },
    () => {
      // Installed at this checkout instead of /opt/faultline: systemd checks that ExecStart's command is executable.
      const unit = path.join(work, "installed.service");
      writeFileSync(unit, readFileSync("contrib/faultline.service", "utf8").replaceAll("/opt/faultline/", `${process.cwd()}/`));
      const r = verifyUnit(unit);
      assert.equal(r.status, 0, r.output);
      assert.equal(r.output.trim(), "", r.output);
      // The same unit with a relative ExecStart, which systemd refuses: the verification is real.
      const broken = path.join(work, "faultline.service");
      writeFileSync(broken, readFileSync(unit, "utf8").replace(/^ExecStart=\//m, "ExecStart="));
      const refused = verifyUnit(broken);
      assert.notEqual(refused.status, 0, refused.output);
      assert.match(refused.output, /ExecStart|absolute/i);
    },
  );

  test("the unit runs what `npm start` runs: the faultline command, which sets the node flags and memory settings", () => {
    const unit = readFileSync("contrib/faultline.service", "utf8");
    const start = (JSON.parse(readFileSync("package.json", "utf8")) as { scripts: { start: string } }).scripts.start;
    assert.equal(start, "bin/faultline start");
    assert.match(unit, /^ExecStart=\/opt\/faultline\/bin\/faultline start$/m);
  });

  test("contrib/nginx.conf passes nginx -t", { skip: nginx ? false : "nginx is not installed (scripts/test.sh installs Debian's nginx)" }, () => {
    const site = readFileSync("contrib/nginx.conf", "utf8");
    const r = nginxTest(site);
    assert.equal(r.status, 0, r.output);
    assert.match(r.output, /syntax is ok/);
    // A directive nginx does not know: refused, so the check is real.
    const refused = nginxTest(site.replace("proxy_request_buffering off;", "proxy_request_bufering off;"));
    assert.notEqual(refused.status, 0, refused.output);
    assert.match(refused.output, /unknown directive "proxy_request_bufering"/);
  });

  test("the proxies keep /metrics from the public side and pass large uploads", () => {
    const nginxSite = readFileSync("contrib/nginx.conf", "utf8");
    assert.match(nginxSite, /location = \/metrics \{[^}]*deny all;/);
    assert.match(nginxSite, /client_max_body_size 100m;/);
    const caddy = readFileSync("contrib/Caddyfile", "utf8");
    assert.match(caddy, /@metrics path \/metrics\s+respond @metrics 404/);
    assert.match(caddy, /max_size 100MB/);
  });
});
