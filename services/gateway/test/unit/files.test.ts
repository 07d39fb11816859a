import { createHash } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import net, { type AddressInfo } from "node:net";
import path from "node:path";
import type * as grpc from "@grpc/grpc-js";
import { implement, IngestionService } from "@engram/grpc";
import { InvalidArgumentError, PermissionDeniedError } from "@engram/kernel";
import { rootLogger } from "@engram/observability";
import { waitFor } from "@engram/testing";
import type { SqliteApiKeyStore } from "../../src/auth/api-key.sqlite";
import { KeyService } from "../../src/auth/keys.service";
import { type AppOptions, createApp } from "../../src/http/app";
import { backendsAt } from "../../src/http/backends";
import { answerClientErrors } from "../../src/http/errors";
import { securityHeaderValues } from "../../src/http/security";
import { SPOOL_MAX_AGE_MS, UploadSpool } from "../../src/http/upload-spool";
import { attachmentDisposition, servedFileType } from "../../src/routes/files.routes";
import { type StandInGateway, startGatewayAgainst } from "../helpers";

const LIMIT = 64 * 1024;
/** A 32 MiB original of pseudo-random bytes, served in 64 KiB frames. */
const LARGE_FRAME = 64 * 1024;
const LARGE = (() => {
  const b = Buffer.alloc(32 * 1024 * 1024);
  let x = 2463534242;
  for (let i = 0; i < b.length; i += 4) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    b.writeUInt32LE(x >>> 0, i);
  }
  return b;
})();
const large = { framesWritten: 0 };
const sha256 = (b: Buffer) => createHash("sha256").update(b).digest("hex");
const logger = rootLogger({ level: "silent" });

interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

interface Part {
  name: string;
  value?: string;
  file?: { filename: string; type?: string; bytes: Buffer };
}

const BOUNDARY = "----engram-test-boundary";

function multipart(parts: Part[]): Buffer {
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const disposition = p.file ? `form-data; name="${p.name}"; filename="${p.file.filename}"` : `form-data; name="${p.name}"`;
    const head = `--${BOUNDARY}\r\nContent-Disposition: ${disposition}\r\n${p.file ? `Content-Type: ${p.file.type ?? "application/octet-stream"}\r\n` : ""}\r\n`;
    chunks.push(Buffer.from(head), p.file ? p.file.bytes : Buffer.from(p.value ?? ""), Buffer.from("\r\n"));
  }
  chunks.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return Buffer.concat(chunks);
}

const file = (bytes = 4096, filename = "notes.txt") => ({ name: "file", file: { filename, type: "text/plain", bytes: Buffer.alloc(bytes, "a") } });

/**
 * The gateway's file routes against a stand-in ingestion gRPC server: the
 * upload spool (every exit removes its file, the sweep), file downloads
 * (safe types, attachment, sandbox) and the security headers of every answer.
 */
describe("gateway file routes and security headers", () => {
  let dir: string;
  let spoolDir: string;
  let store: SqliteApiKeyStore;
  let gateway: StandInGateway;
  let port = 0;
  let key = "";
  /** Holds the "slow" upload inside the backend until released. */
  let hold: { started: () => void; release: Promise<void> } | undefined;
  const uploadedBytes: number[] = [];

  beforeAll(async () => {
    gateway = await startGatewayAgainst(
      implement(IngestionService, {
        async UploadDocumentFile(call: grpc.ServerReadableStream<{ header?: { customId: string }; data?: Buffer }, unknown>) {
          let customId = "";
          let size = 0;
          for await (const m of call) {
            if (m.header) customId = m.header.customId;
            if (m.data) size += m.data.length;
          }
          uploadedBytes.push(size);
          if (customId === "refused") throw new InvalidArgumentError("the file is refused", "by the test backend");
          if (customId === "broken") throw new Error("disk on fire at /var/lib/engram");
          if (customId === "slow" && hold) {
            hold.started();
            await hold.release;
          }
          return { id: "d_00000000000000000001", customId, status: "DOCUMENT_STATUS_QUEUED" };
        },
        async ReadDocumentFile(req: { token: string }, call: grpc.ServerWritableStream<unknown, unknown>) {
          const files: Record<string, { fileName: string; mimeType: string; body: string }> = {
            html: { fileName: "page.html", mimeType: "text/html", body: "<script>alert(document.cookie)</script>" },
            svg: { fileName: "logo.svg", mimeType: "image/svg+xml", body: "<svg onload='alert(1)'/>" },
            xml: { fileName: "feed.xml", mimeType: "application/xml", body: "<x/>" },
            js: { fileName: "app.js", mimeType: "text/javascript", body: "alert(1)" },
            png: { fileName: "pixel.png", mimeType: "image/png", body: "\x89PNG" },
            text: { fileName: "notes.txt", mimeType: "Text/Plain; charset=ISO-8859-1", body: "plain" },
            odd: { fileName: 'r\u00e9sum\u00e9 "final"\r\n/\\.pdf', mimeType: "application/pdf", body: "%PDF" },
            unnamed: { fileName: "", mimeType: "", body: "?" },
          };
          if (req.token === "large" || req.token === "truncated") {
            // A large original sent as ingestion sends it: in frames, waiting for room when the stream is full.
            large.framesWritten = 0;
            call.write({ info: { fileName: "large.bin", mimeType: "application/octet-stream", sizeBytes: String(LARGE.length) } });
            const end = req.token === "truncated" ? LARGE.length / 2 : LARGE.length;
            for (let at = 0; at < end; at += LARGE_FRAME) {
              if (!call.write({ data: LARGE.subarray(at, at + LARGE_FRAME) })) await new Promise((r) => call.once("drain", r));
              large.framesWritten++;
            }
            if (req.token === "truncated") throw new Error("disk read failed half way");
            return;
          }
          const f = files[req.token];
          if (!f) throw new PermissionDeniedError("invalid file link");
          call.write({ info: { fileName: f.fileName, mimeType: f.mimeType, sizeBytes: String(f.body.length) } });
          call.write({ data: Buffer.from(f.body, "latin1") });
        },
      }),
      { logger, tmpPrefix: "engram-gw-files-", app: (d) => ({ uploadLimitBytes: LIMIT, uploadSpoolDir: path.join(d, "spool") }) },
    );
    ({ dir, store, key, port } = gateway);
    spoolDir = path.join(dir, "spool");
    answerClientErrors(gateway.server, securityHeaderValues({ hsts: false }));
  });

  afterAll(async () => {
    await gateway?.close();
  });

  /** An app that never reaches a backend, with small limits. */
  const offlineApp = (o: Partial<AppOptions>) =>
    createApp({
      backends: backendsAt("127.0.0.1:1"),
      keys: new KeyService(store, 0),
      logger,
      jsonLimitBytes: 1024,
      uploadLimitBytes: 1024,
      defaultNamespace: "default",
      ready: () => true,
      ...o,
    });

  /** A multipart upload of `body` under the key, begun but not ended (its errors ignored: the tests end the client early). */
  const uploadRequest = (body: Buffer) => {
    const req = http.request({
      host: "127.0.0.1",
      port,
      method: "POST",
      path: "/ns/acme/document/file",
      headers: { authorization: `Bearer ${key}`, "content-type": `multipart/form-data; boundary=${BOUNDARY}`, "content-length": body.length },
    });
    req.on("error", () => undefined);
    return req;
  };

  function send(method: string, p: string, headers: Record<string, string | number>, body?: Buffer): Promise<Reply> {
    return new Promise((resolve, reject) => {
      const req = http.request({ host: "127.0.0.1", port, method, path: p, headers }, (res) => {
        const parts: Buffer[] = [];
        res.on("data", (c: Buffer) => parts.push(c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts).toString("utf8") }));
      });
      req.on("error", reject);
      req.end(body);
    });
  }

  const upload = (p: string, parts: Part[], withKey = true) => {
    const body = multipart(parts);
    return send(
      "POST",
      p,
      {
        ...(withKey ? { authorization: `Bearer ${key}` } : {}),
        "content-type": `multipart/form-data; boundary=${BOUNDARY}`,
        "content-length": body.length,
      },
      body,
    );
  };

  const spooled = () => (fs.existsSync(spoolDir) ? fs.readdirSync(spoolDir) : []);
  const spoolEmpty = () => waitFor(() => spooled().length === 0, { timeoutMs: 3000, what: `an empty spool (left: ${spooled().join(", ")})` });

  function expectApiError(r: Reply, status: number, error?: RegExp) {
    expect(r.status).toBe(status);
    expect(r.headers["content-type"]).toBe("application/json; charset=utf-8");
    const body = JSON.parse(r.body) as Record<string, unknown>;
    expect(typeof body.error).toBe("string");
    expect(Object.keys(body).every((k) => k === "error" || (k === "details" && typeof body.details === "string"))).toBe(true);
    if (error) expect(`${String(body.error)} ${String(body.details)}`).toMatch(error);
  }

  describe("upload spool", () => {
    it("the spool directory is the process owner's alone", () => {
      expect(fs.statSync(spoolDir).mode & 0o777).toBe(0o700);
    });

    it("refused, failed and successful uploads of every kind leave the spool empty", async () => {
      const cases: [string, () => Promise<Reply>, number, RegExp?][] = [
        ["bad namespace in the path", () => upload("/ns/bad%20ns/document/file", [file()]), 400, /namespace/],
        ["malformed percent-encoding in the path", () => upload("/ns/%zz/document/file", [file()]), 400, /percent-encoding/],
        ["unknown query parameter", () => upload("/ns/acme/document/file?colour=red", [file()]), 400, /colour/],
        ["unknown part", () => upload("/ns/acme/document/file", [file(), { name: "colour", value: "red" }]), 400, /colour/],
        ["__proto__ part", () => upload("/ns/acme/document/file", [{ name: "__proto__", value: "x" }, file()]), 400, /__proto__/],
        ["metadata that is not JSON", () => upload("/ns/acme/document/file", [{ name: "metadata", value: "{nope" }, file()]), 400, /metadata/],
        ["metadata nested too deeply", () => upload("/ns/acme/document/file", [file(), { name: "metadata", value: "[".repeat(5000) }]), 400, /metadata/],
        ["invalid date part", () => upload("/ns/acme/document/file", [file(), { name: "date", value: "yesterday-ish" }]), 400, /date/],
        [
          "v3 containerTags that are not a JSON array",
          () => upload("/v3/documents/file", [file(), { name: "containerTags", value: "[1, 2" }]),
          400,
          /containerTags/,
        ],
        ["v3 bad containerTag", () => upload("/v3/documents/file", [{ name: "containerTag", value: "no spaces allowed" }, file()]), 400, /containerTag/],
        ["two file parts", () => upload("/v3/documents/file", [file(), file(100, "second.txt")]), 400, /file/],
        ["a file under another name", () => upload("/v3/documents/file", [{ ...file(), name: "document" }]), 400, /document/],
        ["no file part", () => upload("/ns/acme/document/file", [{ name: "supportingContext", value: "x" }]), 400, /no part named 'file'/],
        ["a file over the limit", () => upload("/ns/acme/document/file", [file(LIMIT + 1)]), 413, /limited/],
        ["the backend refuses it", () => upload("/ns/acme/document/file", [{ name: "id", value: "refused" }, file()]), 400, /refused/],
        ["the backend fails", () => upload("/v3/documents/file", [{ name: "customId", value: "broken" }, file()]), 500, /error id/],
        ["no API key", () => upload("/ns/acme/document/file", [file()], false), 401],
        ["not multipart", () => send("POST", "/v3/documents/file", { authorization: `Bearer ${key}`, "content-type": "text/plain" }, Buffer.from("hi")), 415],
        [
          "a broken multipart body",
          () =>
            send(
              "POST",
              "/v3/documents/file",
              { authorization: `Bearer ${key}`, "content-type": `multipart/form-data; boundary=${BOUNDARY}` },
              multipart([file()]).subarray(0, 300),
            ),
          400,
        ],
      ];
      for (const [what, run, status, error] of cases) {
        const r = await run();
        try {
          expectApiError(r, status, error);
          await spoolEmpty();
        } catch (err) {
          throw new Error(`${what}: ${(err as Error).message}\n${r.status} ${r.body}`);
        }
      }
      const ok = await upload("/ns/acme/document/file", [{ name: "id", value: "fine" }, file(5000)]);
      expect(ok.status).toBe(200);
      expect(JSON.parse(ok.body)).toEqual({ id: "fine", status: "queued" });
      expect(uploadedBytes.at(-1)).toBe(5000);
      await spoolEmpty();
    });

    it("a client that goes away mid-upload leaves nothing behind", async () => {
      const body = multipart([{ name: "id", value: "gone" }, file(LIMIT - 1000)]);
      const req = uploadRequest(body);
      req.write(body.subarray(0, body.length / 2));
      // The file part has started: multer is writing it to the spool.
      await waitFor(() => spooled().length === 1, { timeoutMs: 3000, what: "the spool file" });
      req.destroy();
      await spoolEmpty();
    });

    it("a client that goes away while the backend stores the file: removed once the call is over, never swept from under another gateway", async () => {
      let started!: () => void;
      let release!: () => void;
      const inBackend = new Promise<void>((r) => (started = r));
      hold = { started, release: new Promise<void>((r) => (release = r)) };
      const body = multipart([{ name: "id", value: "slow" }, file(3000)]);
      const req = uploadRequest(body);
      req.end(body);
      await inBackend;
      // A second gateway starting on the same machine sweeps the same directory: the file in flight is young, so it stays.
      expect(spooled()).toHaveLength(1);
      expect(await UploadSpool.open(spoolDir).sweep()).toBe(0);
      expect(spooled()).toHaveLength(1);
      req.destroy();
      release();
      await spoolEmpty();
      expect(uploadedBytes.at(-1)).toBe(3000);
      hold = undefined;
    });

    it("the sweep removes files older than an hour and nothing else", async () => {
      const d = path.join(dir, "sweep");
      const spool = UploadSpool.open(d);
      const now = Date.now();
      const at = (name: string, ageMs: number) => {
        const p = path.join(d, name);
        fs.writeFileSync(p, "x");
        fs.utimesSync(p, new Date(now - ageMs), new Date(now - ageMs));
        return p;
      };
      const old = at("old", SPOOL_MAX_AGE_MS + 60_000);
      const older = at("older", 7 * 24 * 3600_000);
      const young = at("young", SPOOL_MAX_AGE_MS - 60_000);
      fs.mkdirSync(path.join(d, "subdir"));
      expect(await spool.sweep(SPOOL_MAX_AGE_MS, now)).toBe(2);
      expect(fs.existsSync(old)).toBe(false);
      expect(fs.existsSync(older)).toBe(false);
      expect(fs.existsSync(young)).toBe(true);
      expect(fs.existsSync(path.join(d, "subdir"))).toBe(true);
    });

    it("a gateway sweeps its spool when it starts", async () => {
      const d = path.join(dir, "start");
      fs.mkdirSync(d, { mode: 0o755 });
      const leftover = path.join(d, "leftover");
      const inFlight = path.join(d, "in-flight");
      fs.writeFileSync(leftover, "x");
      fs.writeFileSync(inFlight, "x");
      const past = new Date(Date.now() - 2 * SPOOL_MAX_AGE_MS);
      fs.utimesSync(leftover, past, past);
      offlineApp({ uploadSpoolDir: d });
      await waitFor(() => !fs.existsSync(leftover), { timeoutMs: 3000, what: "the leftover to be swept" });
      expect(fs.existsSync(inFlight)).toBe(true);
      // A directory that existed with wider permissions is narrowed to the owner.
      expect(fs.statSync(d).mode & 0o777).toBe(0o700);
    });

    it("refuses a spool path that is a symbolic link", () => {
      const target = path.join(dir, "elsewhere");
      fs.mkdirSync(target);
      const link = path.join(dir, "link");
      fs.symlinkSync(target, link);
      expect(() => UploadSpool.open(link)).toThrow(/not a directory/);
    });
  });

  describe("file downloads", () => {
    const get = (token: string) => send("GET", `/files/${token}`, {});

    it.each(["html", "svg", "xml", "js"])("an active type (%s) is served as application/octet-stream, as an attachment, sandboxed", async (token) => {
      const r = await get(token);
      expect(r.status).toBe(200);
      expect(r.headers["content-type"]).toBe("application/octet-stream");
      expect(r.headers["content-disposition"]).toMatch(/^attachment; filename="/);
      expect(r.headers["content-security-policy"]).toBe("default-src 'none'; sandbox; frame-ancestors 'none'");
      expect(r.headers["x-content-type-options"]).toBe("nosniff");
      expect(r.headers["cache-control"]).toBe("private, no-store");
      expect(r.headers["referrer-policy"]).toBe("no-referrer");
    });

    it("a safe type keeps its bare type, still as an attachment", async () => {
      const png = await get("png");
      expect(png.headers["content-type"]).toBe("image/png");
      expect(png.headers["content-disposition"]).toBe(`attachment; filename="pixel.png"; filename*=UTF-8''pixel.png`);
      expect(png.headers["cross-origin-resource-policy"]).toBe("cross-origin");
      expect((await get("text")).headers["content-type"]).toBe("text/plain");
      expect((await get("unnamed")).headers["content-disposition"]).toBe("attachment");
    });

    it("a file name with quotes, line breaks, slashes and non-ASCII gives a well-formed header", async () => {
      const r = await get("odd");
      expect(r.status).toBe(200);
      expect(r.headers["content-disposition"]).toBe(
        `attachment; filename="r_sum_ _final_____.pdf"; filename*=UTF-8''r%C3%A9sum%C3%A9%20%22final%22%0D%0A%2F%5C.pdf`,
      );
    });

    /** A download read by a client that stops reading for `pauseMs` after the headers, then reads the rest. */
    const download = (token: string, pauseMs = 0) =>
      new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer; framesWhilePaused: number; error?: Error }>((resolve, reject) => {
        const req = http.get({ host: "127.0.0.1", port, path: `/files/${token}` }, (res) => {
          const chunks: Buffer[] = [];
          let framesWhilePaused = -1;
          const finish = (error?: Error) => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks), framesWhilePaused, error });
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () => finish());
          res.on("error", (e) => finish(e));
          res.on("aborted", () => finish(new Error("aborted")));
          if (pauseMs > 0) {
            res.pause();
            setTimeout(() => {
              framesWhilePaused = large.framesWritten;
              res.resume();
            }, pauseMs);
          }
        });
        req.on("error", reject);
      });

    it("a large file streams through byte-identical, with its length", async () => {
      const r = await download("large");
      expect(r.status).toBe(200);
      expect(r.headers["content-length"]).toBe(String(LARGE.length));
      expect(r.body.length).toBe(LARGE.length);
      expect(sha256(r.body)).toBe(sha256(LARGE));
    });

    it("a client that stops reading stops the backend's stream (back-pressure), then gets the whole file", async () => {
      const r = await download("large", 1500);
      const total = LARGE.length / LARGE_FRAME;
      // While the client read nothing, the backend could write only what the sockets' and HTTP/2 windows hold:
      // a collecting gateway would have taken all 512 frames (32 MiB) at once.
      expect(r.framesWhilePaused).toBeGreaterThan(0);
      expect(r.framesWhilePaused).toBeLessThan(total / 2);
      expect(sha256(r.body)).toBe(sha256(LARGE));
    });

    it("a backend failing half way cuts the download off: the client sees an incomplete transfer, not a complete file", async () => {
      const r = await download("truncated");
      expect(r.status).toBe(200);
      expect(r.body.length).toBeLessThan(LARGE.length);
      expect(r.error).toBeDefined();
    });

    it("an invalid link is a 403 with the API error body and the JSON headers", async () => {
      const r = await get("nope");
      expectApiError(r, 403, /invalid file link/);
      expect(r.headers["content-security-policy"]).toBe("default-src 'none';frame-ancestors 'none'");
    });

    it("servedFileType and attachmentDisposition", () => {
      expect(servedFileType("IMAGE/JPEG ; q=1")).toBe("image/jpeg");
      expect(servedFileType("text/html; charset=utf-8")).toBe("application/octet-stream");
      expect(servedFileType("application/xhtml+xml")).toBe("application/octet-stream");
      expect(servedFileType("image/svg+xml")).toBe("application/octet-stream");
      expect(servedFileType(undefined)).toBe("application/octet-stream");
      expect(attachmentDisposition("a'b(c)*!.txt")).toBe(`attachment; filename="a'b(c)*!.txt"; filename*=UTF-8''a%27b%28c%29%2A%21.txt`);
      // A lone surrogate (which encodeURIComponent refuses) becomes U+FFFD.
      expect(attachmentDisposition("a\ud800b")).toBe(`attachment; filename="a_b"; filename*=UTF-8''a%EF%BF%BDb`);
      expect(attachmentDisposition("../../etc/passwd")).toBe(`attachment; filename=".._.._etc_passwd"; filename*=UTF-8''..%2F..%2Fetc%2Fpasswd`);
    });
  });

  describe("security headers", () => {
    it("every answer carries them: success, 401, 404, 400 and probes", async () => {
      const answers = [
        await send("GET", "/healthz", {}),
        await send("GET", "/v3/documents/d_1", {}),
        await send("GET", "/nowhere", { authorization: `Bearer ${key}` }),
        await send("GET", "/v3/documents/%zz", { authorization: `Bearer ${key}` }),
      ];
      expect(answers.map((a) => a.status)).toEqual([200, 401, 404, 400]);
      for (const a of answers) {
        expect(a.headers).toMatchObject({
          "content-security-policy": "default-src 'none';frame-ancestors 'none'",
          "x-content-type-options": "nosniff",
          "x-frame-options": "DENY",
          "referrer-policy": "no-referrer",
          "cross-origin-resource-policy": "same-origin",
          "cross-origin-opener-policy": "same-origin",
          "cache-control": "no-store",
        });
        expect(a.headers["strict-transport-security"]).toBeUndefined();
        expect(a.headers["x-powered-by"]).toBeUndefined();
      }
    });

    it("requests node's HTTP parser refuses get the API error body and the security headers, not a bare status line", async () => {
      const raw = (request: string) =>
        new Promise<string>((resolve, reject) => {
          const socket = net.connect(port, "127.0.0.1", () => socket.write(request));
          const parts: Buffer[] = [];
          socket.on("data", (c: Buffer) => parts.push(c));
          socket.on("end", () => resolve(Buffer.concat(parts).toString("utf8")));
          socket.on("error", reject);
        });
      const overflow = await raw(`GET /v3/documents?q=${"x".repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`);
      const malformed = await raw("GET / HTTP/1.1\r\nHost: x\r\nNot a header\r\n\r\n");
      for (const [answer, status, error] of [
        [overflow, 431, "Request headers too large"],
        [malformed, 400, "Bad request"],
      ] as const) {
        const [head, body] = answer.split("\r\n\r\n");
        expect(head).toMatch(new RegExp(`^HTTP/1.1 ${status} `));
        expect(head).toMatch(/\r\nx-content-type-options: nosniff\r\n/);
        expect(head).toMatch(/\r\ncontent-security-policy: default-src 'none';frame-ancestors 'none'\r\n/);
        expect(head).toMatch(/\r\ncontent-type: application\/json; charset=utf-8\r\n/);
        expect(head).toMatch(/\r\nconnection: close/);
        expect(JSON.parse(body!)).toEqual({ error, details: expect.any(String) });
      }
    });

    it("HSTS only when the public URL is https", async () => {
      for (const [publicUrl, hsts] of [
        ["https://engram.example.com", "max-age=31536000"],
        ["http://engram.internal:8787", undefined],
      ] as const) {
        const app = offlineApp({ uploadSpoolDir: spoolDir, publicUrl });
        const s = app.listen(0, "127.0.0.1");
        await new Promise((r) => s.once("listening", r));
        const res = await fetch(`http://127.0.0.1:${(s.address() as AddressInfo).port}/healthz`);
        await new Promise((r) => s.close(r));
        expect(res.headers.get("strict-transport-security") ?? undefined).toBe(hsts);
      }
    });
  });
});
