import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { ExitCode } from "../src/exit-codes";
import { runCli } from "../src/program";
import { captureIo, tempDir } from "./helpers";

interface Seen {
  method: string;
  url: string;
  body: unknown;
}

const RUN = {
  status: "succeeded",
  trigger: "initial",
  errorCode: null,
  error: null,
  startedAt: "2026-03-01T10:00:00.000Z",
  completedAt: "2026-03-01T10:00:05.000Z",
  documentsImported: 7,
};
const CONNECTION = {
  id: "n_AAAAAAAAAAAAAAAAAAAA",
  provider: "web-crawler",
  createdAt: "2026-03-01T09:59:59.000Z",
  metadata: { startUrl: "https://docs.example.com/" },
  containerTags: ["product_docs"],
  status: "active",
  lastSyncRun: RUN,
};

/**
 * The requests `engram connections …` sends, against a stand-in server that
 * answers what the API would (shapes of docs/api-decisions.md section 14).
 */
describe("engram connections (request shapes and output, against a stand-in server)", () => {
  const dir = tempDir();
  let server: http.Server;
  let url = "";
  const seen: Seen[] = [];

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      let raw = "";
      req.on("data", (c: Buffer) => (raw += c.toString("utf8")));
      req.on("end", () => {
        seen.push({ method: req.method ?? "", url: req.url ?? "", body: raw ? JSON.parse(raw) : undefined });
        const u = new URL(req.url ?? "/", "http://x");
        const json = (status: number, body: unknown) => res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
        if (req.method === "POST" && u.pathname === "/v3/connections/list") return json(200, [CONNECTION]);
        if (req.method === "POST" && u.pathname === "/v3/connections/web-crawler/import")
          return void res.writeHead(202, { "content-type": "text/plain" }).end("Importing connections...");
        if (req.method === "POST" && u.pathname === "/v3/connections/github")
          return json(200, { id: "n_BBBBBBBBBBBBBBBBBBBB", authLink: "https://github.example/login/oauth/authorize?state=s", expiresIn: "1 hour" });
        if (req.method === "POST" && u.pathname.startsWith("/v3/connections/")) return json(200, { id: CONNECTION.id, authLink: "", expiresIn: "" });
        if (req.method === "GET" && u.pathname === `/v3/connections/${CONNECTION.id}/runs`) return json(200, { runs: [RUN] });
        if (req.method === "GET" && u.pathname === `/v3/connections/${CONNECTION.id}`) return json(200, CONNECTION);
        if (req.method === "DELETE" && u.pathname === `/v3/connections/${CONNECTION.id}`) return json(200, { id: CONNECTION.id, provider: "web-crawler" });
        json(404, { error: "Not found", details: "no such connection" });
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  beforeEach(() => void seen.splice(0));

  const cli = async (argv: string[], env: NodeJS.ProcessEnv = {}) => {
    const io = captureIo({ ENGRAM_CONFIG: path.join(dir(), "config.json"), ENGRAM_URL: url, ENGRAM_API_KEY: "k", ENGRAM_MAX_RETRIES: "0", ...env }, dir());
    const code = await runCli(argv, io);
    return { code, out: io.out(), err: io.err() };
  };

  it("list: every connection, or those of the container tag (--tag, -t or ENGRAM_CONTAINER_TAG), as a table or JSON", async () => {
    const all = await cli(["connections", "list"]);
    expect(all.code).toBe(0);
    expect(seen[0]).toEqual({ method: "POST", url: "/v3/connections/list", body: {} });
    const [header, row] = all.out.split("\n");
    expect(header).toMatch(/^ID\s+PROVIDER\s+STATUS\s+CONTAINER TAGS\s+EMAIL\s+LAST SYNC \(UTC\)$/);
    expect(row).toMatch(/^n_A{20}\s+web-crawler\s+active\s+product_docs\s+-\s+succeeded, 7 imported, 2026-03-01 10:00:00$/);
    // columns line up: every value starts where its header does
    expect(row!.indexOf("web-crawler")).toBe(header!.indexOf("PROVIDER"));
    expect(row!.indexOf("succeeded")).toBe(header!.indexOf("LAST SYNC"));

    for (const argv of [
      ["connections", "list", "--tag", "product_docs"],
      ["connections", "list", "-t", "product_docs"],
    ]) {
      seen.splice(0);
      expect((await cli(argv)).code).toBe(0);
      expect(seen[0]!.body).toEqual({ containerTags: ["product_docs"] });
    }
    seen.splice(0);
    const json = await cli(["connections", "list", "--json"], { ENGRAM_CONTAINER_TAG: "product_docs" });
    expect(seen[0]!.body).toEqual({ containerTags: ["product_docs"] });
    expect(JSON.parse(json.out)).toEqual([CONNECTION]);
  });

  it("get and runs: the connection with its last sync, the run history with --limit", async () => {
    const get = await cli(["connections", "get", CONNECTION.id]);
    expect(get.code).toBe(0);
    expect(get.out).toContain("startUrl");
    expect(get.out).toMatch(/last sync:\n\s+status\s+succeeded\n\s+trigger\s+initial\n\s+imported\s+7/);

    const runs = await cli(["connections", "runs", CONNECTION.id, "--limit", "5"]);
    expect(runs.code).toBe(0);
    expect(seen[1]).toMatchObject({ method: "GET", url: `/v3/connections/${CONNECTION.id}/runs?limit=5` });
    expect(runs.out).toMatch(/2026-03-01 10:00:00\s+succeeded\s+initial\s+7\s+2026-03-01 10:00:05/);
    expect(runs.out).toContain("1 run(s)");

    const json = await cli(["connections", "runs", CONNECTION.id, "--json"]);
    expect(seen[2]!.url).toBe(`/v3/connections/${CONNECTION.id}/runs?limit=20`);
    expect(JSON.parse(json.out)).toEqual({ runs: [RUN] });
  });

  it("create sends the container tag, metadata, document limit and redirect URL; an OAuth provider prints the link to open", async () => {
    const direct = await cli([
      "connections",
      "create",
      "web-crawler",
      "--tag",
      "product_docs",
      "--metadata",
      '{"startUrl":"https://docs.example.com/"}',
      "--document-limit",
      "50",
    ]);
    expect(direct.code).toBe(0);
    expect(seen[0]).toEqual({
      method: "POST",
      url: "/v3/connections/web-crawler",
      body: { containerTag: "product_docs", metadata: { startUrl: "https://docs.example.com/" }, documentLimit: 50 },
    });
    expect(direct.out).toContain(`created web-crawler connection ${CONNECTION.id} in product_docs`);
    expect(direct.out).not.toContain("authorize");

    const oauth = await cli(["connections", "create", "github", "-t", "code", "--redirect-url", "https://app.example/done"]);
    expect(oauth.code).toBe(0);
    expect(seen[1]!.body).toEqual({ containerTag: "code", redirectUrl: "https://app.example/done" });
    expect(oauth.out).toContain("open this link to authorize it (valid for 1 hour):\nhttps://github.example/login/oauth/authorize?state=s\n");

    const json = await cli(["connections", "create", "github", "--json"]);
    expect(seen[2]!.body).toEqual({});
    expect(JSON.parse(json.out)).toMatchObject({ id: "n_BBBBBBBBBBBBBBBBBBBB", authLink: expect.stringContaining("github.example") });
  });

  it("sync starts an import of the provider's connections (202, plain text); delete keeps the documents only when asked", async () => {
    const sync = await cli(["connections", "sync", "web-crawler", "--tag", "product_docs", "--json"]);
    expect(sync.code).toBe(0);
    expect(seen[0]).toEqual({ method: "POST", url: "/v3/connections/web-crawler/import", body: { containerTags: ["product_docs"] } });
    expect(JSON.parse(sync.out)).toEqual({ provider: "web-crawler", containerTags: ["product_docs"], message: "Importing connections..." });
    const human = await cli(["connections", "sync", "web-crawler"]);
    expect(seen[1]!.body).toEqual({});
    expect(human.out).toBe("started a sync of the web-crawler connections (Importing connections...)\n");

    expect((await cli(["connections", "delete", CONNECTION.id])).out).toContain("and the documents it imported");
    expect(seen[2]).toMatchObject({ method: "DELETE", url: `/v3/connections/${CONNECTION.id}?deleteDocuments=true` });
    const kept = await cli(["connections", "delete", CONNECTION.id, "--keep-documents", "--json"]);
    expect(seen[3]!.url).toBe(`/v3/connections/${CONNECTION.id}?deleteDocuments=false`);
    expect(JSON.parse(kept.out)).toEqual({ id: CONNECTION.id, provider: "web-crawler", deleteDocuments: false });
  });

  it("reports the API's error and details with exit code 5", async () => {
    const r = await cli(["connections", "get", "n_doesnotexist00000000"]);
    expect(r.code).toBe(ExitCode.Api);
    expect(r.err).toContain("404 Not found: no such connection");
  });

  it("refuses bad arguments before calling the server (exit code 2)", async () => {
    const cases: string[][] = [
      ["connections", "frobnicate"],
      ["connections", "get"],
      ["connections", "runs", CONNECTION.id, "--limit", "0"],
      ["connections", "runs", CONNECTION.id, "--limit", "101"],
      ["connections", "runs", CONNECTION.id, "--limit", "abc"],
      ["connections", "runs", ".."],
      ["connections", "create"],
      ["connections", "create", "web-crawler", "--metadata", "[1]"],
      ["connections", "create", "web-crawler", "--metadata", '{"nested":{"a":1}}'],
      ["connections", "create", "web-crawler", "--document-limit", "0"],
      ["connections", "create", "github", "--redirect-url", "not a url"],
      ["connections", "create", "web-crawler", "--tag", "a", "-t", "b"],
      ["connections", "create", "web-crawler", "--tag", "bad tag"],
      ["connections", "sync"],
      ["connections", "delete", CONNECTION.id, "--bogus"],
    ];
    for (const argv of cases) expect([argv.join(" "), (await cli(argv)).code]).toEqual([argv.join(" "), ExitCode.Usage]);
    expect(seen).toEqual([]);
  });
});
