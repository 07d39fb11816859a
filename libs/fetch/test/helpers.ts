import fs from "node:fs";
import http from "node:http";
import https from "node:https";
import type { AddressInfo } from "node:net";
import path from "node:path";
import type { TLSSocket } from "node:tls";

/** What a test server saw: one entry per request. */
export interface Seen {
  path: string;
  headers: http.IncomingHttpHeaders;
  /** TLS SNI, for the HTTPS server. */
  servername?: string;
}

export interface TestServer {
  port: number;
  /** `http://127.0.0.1:<port><path>` (or the host/scheme given). */
  url(path: string, host?: string): string;
  seen: Seen[];
  close(): Promise<void>;
}

type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

/** The test certificate: self-signed, for DNS:public.test, valid 2000-2099. Test use only. */
export const TEST_CERT = fs.readFileSync(path.join(__dirname, "fixtures", "test-cert.pem"), "utf8");
const TEST_KEY = fs.readFileSync(path.join(__dirname, "fixtures", "test-key.pem"), "utf8");

/** Starts a server on a loopback interface (never anything else); `handler` answers every request. */
export async function startServer(handler: Handler, opts: { host?: "127.0.0.1" | "::1"; tls?: boolean } = {}): Promise<TestServer> {
  const host = opts.host ?? "127.0.0.1";
  const seen: Seen[] = [];
  const listener: Handler = (req, res) => {
    const servername = (req.socket as TLSSocket).servername;
    seen.push({ path: req.url ?? "", headers: req.headers, ...(typeof servername === "string" ? { servername } : {}) });
    handler(req, res);
  };
  const server: http.Server = opts.tls ? https.createServer({ cert: TEST_CERT, key: TEST_KEY }, listener) : http.createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const port = (server.address() as AddressInfo).port;
  const scheme = opts.tls ? "https" : "http";
  const defaultHost = host === "::1" ? "[::1]" : host;
  return {
    port,
    seen,
    url: (p, h = defaultHost) => `${scheme}://${h}:${port}${p}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A port nothing listens on (a server was there a moment ago). */
export async function closedPort(): Promise<number> {
  const s = await startServer(() => undefined);
  await s.close();
  return s.port;
}

/** A fake DNS: names map to addresses; anything else is ENOTFOUND. Records every question. */
export function fakeResolver(table: Record<string, string[] | (() => string[])>) {
  const asked: string[] = [];
  const resolve = async (host: string): Promise<string[]> => {
    asked.push(host);
    const entry = table[host];
    if (entry === undefined) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" });
    return typeof entry === "function" ? entry() : entry;
  };
  return { resolve, asked };
}

/** Resolves with the error a promise rejects with (fails the test if it resolves). */
export async function rejection(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (err) {
    return err;
  }
  throw new Error("expected the promise to reject");
}
