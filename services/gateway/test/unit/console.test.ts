import fs from "node:fs";
import type http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import express from "express";
import type { Logger } from "@engram/observability";
import { CONSOLE_CSP, consoleDistDir, consoleRoutes } from "../../src/http/console";
import { errorHandler, notFoundHandler } from "../../src/http/errors";
import { sendJson } from "../../src/http/json";

const log = { error: () => undefined, warn: () => undefined } as unknown as Logger;

/** The console's static serving (services/gateway/src/http/console.ts) over a stand-in build folder. */
describe("console routes", () => {
  let server: http.Server;
  let base = "";
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "engram-console-"));

  beforeAll(async () => {
    const app = express();
    app.response.json = sendJson;
    app.use(consoleRoutes(dir));
    app.use(notFoundHandler);
    app.use(errorHandler(log));
    server = app.listen(0, "127.0.0.1");
    await new Promise((r) => server.once("listening", r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((r) => server.close(r));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("answers 503 with the API error body saying how to build it when the console is not built", async () => {
    const res = await fetch(`${base}/console`);
    expect(res.status).toBe(503);
    const body = (await res.json()) as { error: string; details: string };
    expect(body.error).toBe("Console unavailable");
    expect(body.details).toMatch(/pnpm --filter @engram\/console build/);
  });

  it("serves the page for /console and its client routes, assets with a long cache, and 404 for a missing asset", async () => {
    fs.mkdirSync(path.join(dir, "assets"), { recursive: true });
    fs.writeFileSync(path.join(dir, "index.html"), "<!doctype html><div id=root></div>");
    fs.writeFileSync(path.join(dir, "assets", "index-abc.js"), "console.log(1)");
    for (const p of ["/console", "/console/", "/console/documents/d_x"]) {
      const res = await fetch(`${base}${p}`);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toMatch(/^text\/html/);
      expect(res.headers.get("content-security-policy")).toBe(CONSOLE_CSP);
      expect(await res.text()).toContain("id=root");
    }
    const js = await fetch(`${base}/console/assets/index-abc.js`);
    expect(js.status).toBe(200);
    expect(js.headers.get("content-type")).toMatch(/javascript/);
    expect(js.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    const missing = await fetch(`${base}/console/assets/nope.js`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ error: "Not found", details: "no console asset /assets/nope.js" });
    expect((await fetch(`${base}/console/assets/..%2f..%2fetc%2fpasswd`)).status).toBe(404);
    // Other methods and other paths are not the console's.
    expect((await fetch(`${base}/console`, { method: "POST" })).status).toBe(404);
    expect((await fetch(`${base}/consoles`)).status).toBe(404);
  });

  it("finds apps/console/dist of the repository from the gateway's sources, ENGRAM_CONSOLE_DIR, or console/ beside a bundle", () => {
    const repo = path.resolve(__dirname, "../../../..");
    expect(consoleDistDir(path.join(repo, "services", "gateway", "src", "http"), {})).toBe(path.join(repo, "apps", "console", "dist"));
    expect(consoleDistDir(__dirname, { ENGRAM_CONSOLE_DIR: "/srv/console" })).toBe(path.resolve("/srv/console"));
    // A bundled deployment (scripts/build.mjs): dist/console beside the bundle.
    const bundle = fs.mkdtempSync(path.join(os.tmpdir(), "engram-bundle-"));
    fs.mkdirSync(path.join(bundle, "console"));
    fs.writeFileSync(path.join(bundle, "console", "index.html"), "<!doctype html>");
    expect(consoleDistDir(bundle, {})).toBe(path.join(bundle, "console"));
    fs.rmSync(bundle, { recursive: true, force: true });
  });
});
