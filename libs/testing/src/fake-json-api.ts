import http from "node:http";
import type { AddressInfo } from "node:net";

/** A request as the fake API saw it, its body parsed as JSON. */
export interface RecordedRequest<Body> {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: Body;
}

/**
 * How the fake API answers one request: a status (default 200), headers, a
 * body (`json`, or `raw` text), sent as `application/json` after `delayMs`;
 * or "hang": never.
 */
export type FakeReply = { status?: number; headers?: Record<string, string>; json?: unknown; raw?: string; delayMs?: number } | "hang";

export interface FakeJsonApi<Body> {
  /** Every request so far, in order of arrival. */
  readonly requests: RecordedRequest<Body>[];
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  /** Closes the server and its open connections (a hanging request's included). */
  close(): Promise<void>;
}

/**
 * A loopback HTTP server standing in for a JSON API (an OpenAI-compatible
 * provider): it records each request and answers it as `respond` says for the
 * request and its index (0 for the first).
 */
export async function startFakeJsonApi<Body>(respond: (req: RecordedRequest<Body>, n: number) => FakeReply): Promise<FakeJsonApi<Body>> {
  const requests: RecordedRequest<Body>[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as Body;
      const rec: RecordedRequest<Body> = { method: req.method ?? "", url: req.url ?? "", headers: req.headers, body };
      requests.push(rec);
      const reply = respond(rec, requests.length - 1);
      if (reply === "hang") return; // never answer
      const send = () => {
        res.writeHead(reply.status ?? 200, { "content-type": "application/json", ...reply.headers });
        res.end(reply.raw ?? JSON.stringify(reply.json ?? {}));
      };
      if (reply.delayMs) setTimeout(send, reply.delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    requests,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
