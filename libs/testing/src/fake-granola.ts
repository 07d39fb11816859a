/*
 * A fake of Granola's public API on 127.0.0.1 for the connector's tests:
 * notes with cursor pages and `updated_after`, a Bearer key that can be
 * revoked, notes still processing (absent from listings), and failures on
 * demand (status and Retry-After).
 */
import type http from "node:http";
import { FakeHttpServer } from "./fake-http-server";

export interface FakeGranolaNote {
  id: string;
  title: string;
  updated_at: string;
  summary_markdown: string;
  transcript: { speaker: { name?: string; source: string }; text: string }[];
  /** Still being processed: absent from listings, readable by id. */
  processing?: boolean;
}

export class FakeGranola extends FakeHttpServer {
  readonly notes = new Map<string, FakeGranolaNote>();
  key = "grn_good";
  failNext: { status: number; headers?: Record<string, string> }[] = [];
  requests: string[] = [];

  protected handle(req: http.IncomingMessage, res: http.ServerResponse) {
    const url = new URL(req.url!, "http://x");
    this.requests.push(`${url.pathname}${url.search}`);
    const json = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { "content-type": "application/json", ...headers });
      res.end(JSON.stringify(body));
    };
    if (req.headers.authorization !== `Bearer ${this.key}`) return json(401, { error: "invalid api key" });
    const fail = this.failNext.shift();
    if (fail) return json(fail.status, { error: "try later" }, fail.headers);
    if (url.pathname === "/v1/notes") {
      const after = url.searchParams.get("updated_after");
      const all = [...this.notes.values()].filter((n) => !n.processing && (!after || n.updated_at > after)).sort((a, b) => a.id.localeCompare(b.id));
      const size = Number(url.searchParams.get("page_size") ?? 10);
      const start = Number(url.searchParams.get("cursor") ?? 0);
      const page = all.slice(start, start + size);
      const more = start + size < all.length;
      return json(200, {
        notes: page.map((n) => ({ id: n.id, title: n.title, updated_at: n.updated_at })),
        hasMore: more,
        cursor: more ? String(start + size) : null,
      });
    }
    const m = /^\/v1\/notes\/([^/]+)$/.exec(url.pathname);
    const note = m && this.notes.get(decodeURIComponent(m[1]!));
    if (!note) return json(404, { error: "not found" });
    return json(200, { ...note, transcript: url.searchParams.get("include") === "transcript" ? note.transcript : undefined });
  }
}

export const granolaNote = (id: string, updated: string, over: Partial<FakeGranolaNote> = {}): FakeGranolaNote => ({
  id,
  title: `Meeting ${id}`,
  updated_at: updated,
  summary_markdown: `- decided ${id}`,
  transcript: [
    { speaker: { source: "microphone" }, text: `Let's talk about ${id}.` },
    { speaker: { name: "Ana", source: "speaker" }, text: "Agreed." },
  ],
  ...over,
});
