import { ProviderError, requestJson, type RetryPolicy, withRetries } from "@engram/provider-http";
import { z } from "zod";
import type { Connection, ConnectionItem } from "../../domain/connection";
import { ConnectorError } from "../../domain/errors";
import type { Connector, ConnectorChange } from "../../app/sync-ports";

/**
 * The Granola connector (meeting notes). Granola has no npm client, so this
 * is a small client on `fetch` with provider-http's retry policy: list notes
 * (`GET /v1/notes`, cursor pages of at most 30, `updated_after` for
 * incremental syncs) and read each one with its transcript
 * (`GET /v1/notes/{id}?include=transcript`). Notes still being processed are
 * absent from listings, so a note missing from a listing is deleted only
 * when reading it answers 404 (the prune).
 */

export const GRANOLA_API_URL = "https://public-api.granola.ai";
const PAGE_SIZE = 30;
const RETRIES: RetryPolicy = { maxRetries: 3, initialBackoffMs: 500, maxBackoffMs: 30_000 };

const listSchema = z.object({
  notes: z.array(z.object({ id: z.string().min(1), updated_at: z.string().nullish(), created_at: z.string().nullish() }).passthrough()),
  hasMore: z.boolean().optional(),
  cursor: z.string().nullish(),
});

const person = z.object({ name: z.string().nullish(), email: z.string().nullish() }).passthrough();
const noteSchema = z
  .object({
    id: z.string(),
    title: z.string().nullish(),
    created_at: z.string().nullish(),
    updated_at: z.string().nullish(),
    attendees: z.array(person).nullish(),
    calendar_event: z.object({ event_title: z.string().nullish(), scheduled_start_time: z.string().nullish() }).passthrough().nullish(),
    summary_markdown: z.string().nullish(),
    summary_text: z.string().nullish(),
    transcript: z
      .array(
        z
          .object({
            speaker: z.object({ name: z.string().nullish(), source: z.string().nullish() }).passthrough().nullish(),
            text: z.string().nullish(),
            start_time: z.string().nullish(),
          })
          .passthrough(),
      )
      .nullish(),
  })
  .passthrough();
export type GranolaNote = z.infer<typeof noteSchema>;

class GranolaHttpError extends ProviderError {
  override name = "GranolaHttpError";
}

/** The provider's failure as the sync run reports it. */
function toConnectorError(e: unknown): ConnectorError {
  if (e instanceof ConnectorError) return e;
  if (e instanceof ProviderError) {
    if (e.status === 401 || e.status === 403) return new ConnectorError("auth_expired", "Granola refused the API key", { cause: e });
    if (e.status === 429) return new ConnectorError("rate_limited", "Granola is rate limiting", { retryAfterMs: e.retryAfterMs, cause: e });
    if (e.retryable) return new ConnectorError("provider_unavailable", e.message, { cause: e });
  }
  return new ConnectorError("internal", e instanceof Error ? e.message : String(e), { cause: e });
}

export class GranolaClient {
  constructor(
    private readonly apiKey: string,
    private readonly o: { baseUrl?: string; timeoutMs?: number; fetch?: typeof fetch } = {},
  ) {}

  /** One page of notes (newest changes included when `updatedAfter` is set). */
  async listNotes(p: { cursor?: string; updatedAfter?: string; pageSize?: number }) {
    const q = new URLSearchParams({ page_size: String(p.pageSize ?? PAGE_SIZE) });
    if (p.cursor) q.set("cursor", p.cursor);
    if (p.updatedAfter) q.set("updated_after", p.updatedAfter);
    return listSchema.parse(await this.get(`/v1/notes?${q}`));
  }

  /** A note with its transcript; undefined when Granola answers 404 (deleted, or no longer shared). */
  async note(id: string): Promise<GranolaNote | undefined> {
    try {
      return noteSchema.parse(await this.get(`/v1/notes/${encodeURIComponent(id)}?include=transcript`));
    } catch (e) {
      if (e instanceof ProviderError && e.status === 404) return undefined;
      throw e;
    }
  }

  private async get(path: string): Promise<unknown> {
    const what = `Granola GET ${path.split("?")[0]}`;
    const { text } = await withRetries(
      () =>
        requestJson({
          method: "GET",
          url: `${(this.o.baseUrl ?? GRANOLA_API_URL).replace(/\/$/, "")}${path}`,
          apiKey: this.apiKey,
          timeoutMs: this.o.timeoutMs ?? 30_000,
          fetch: this.o.fetch ?? fetch,
          what,
          errorClass: GranolaHttpError,
        }),
      RETRIES,
      { errorClass: GranolaHttpError, what },
    );
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new GranolaHttpError(`${what} answered something that is not JSON`, { retryable: false });
    }
  }
}

/** A note as one Markdown document: title, when and who, the summary, then the transcript by speaker. */
export function noteMarkdown(n: GranolaNote): string {
  const sections = [`# ${n.title?.trim() || n.calendar_event?.event_title?.trim() || "Meeting notes"}`];
  const when = n.calendar_event?.scheduled_start_time ?? n.created_at;
  const who = (n.attendees ?? []).map((a) => a.name?.trim() || a.email?.trim()).filter(Boolean);
  const header = [...(when ? [`Date: ${when}`] : []), ...(who.length ? [`Attendees: ${who.join(", ")}`] : [])];
  if (header.length) sections.push(header.join("\n"));
  const summary = n.summary_markdown?.trim() || n.summary_text?.trim();
  if (summary) sections.push(`## Summary\n\n${summary}`);
  const turns = (n.transcript ?? []).filter((t) => t.text?.trim());
  const speaker = (t: (typeof turns)[number]) => t.speaker?.name?.trim() || (t.speaker?.source === "microphone" ? "Me" : "Speaker");
  if (turns.length) sections.push(`## Transcript\n\n${turns.map((t) => `${speaker(t)}: ${t.text!.trim()}`).join("\n")}`);
  return sections.join("\n\n") + "\n";
}

/** The time a note last changed (its version): updated_at, else created_at. */
const versionOf = (n: { updated_at?: string | null; created_at?: string | null }) => n.updated_at ?? n.created_at ?? "";

/** How often a sync lists every note (and prunes) instead of only those updated since the cursor. */
export const GRANOLA_FULL_LISTING_EVERY_MS = 24 * 60 * 60 * 1000;

/** The connection's cursor: the newest `updated_at` imported, and when the last full listing was. */
interface GranolaCursor {
  updatedAfter: string;
  fullAt: string;
}

function readCursor(raw: string | undefined): GranolaCursor | undefined {
  if (!raw) return undefined;
  try {
    const c = JSON.parse(raw) as Partial<GranolaCursor>;
    return typeof c.updatedAfter === "string" && typeof c.fullAt === "string" ? { updatedAfter: c.updatedAfter, fullAt: c.fullAt } : undefined;
  } catch {
    return undefined;
  }
}

export interface GranolaConnectorOptions {
  baseUrl?: string;
  fetch?: typeof fetch;
  now?: () => number;
  /** The API key of a connection (opened from its sealed credentials). */
  apiKeyOf: (conn: Connection) => string;
}

/**
 * Syncs a connection's notes: the notes updated since the cursor, or every
 * note on the first sync and once a day (a full listing); every listed note
 * whose version differs is read and imported. After a full listing, imported
 * notes it no longer had are read one by one and deleted when Granola answers
 * 404 (the prune). The new cursor (newest `updated_at` seen, time of the last
 * full listing) is reported last, so it moves only once everything before it
 * is applied.
 */
export class GranolaConnector implements Connector {
  constructor(private readonly o: GranolaConnectorOptions) {}

  async *changes(conn: Connection, known: ReadonlyMap<string, ConnectionItem>, signal: AbortSignal): AsyncIterable<ConnectorChange> {
    const client = new GranolaClient(this.o.apiKeyOf(conn), { baseUrl: this.o.baseUrl, fetch: this.o.fetch });
    const now = new Date((this.o.now ?? Date.now)()).toISOString();
    const previous = readCursor(conn.cursor);
    const full = !previous || Date.parse(now) - Date.parse(previous.fullAt) >= GRANOLA_FULL_LISTING_EVERY_MS;
    const listed = new Set<string>();
    let newest = previous?.updatedAfter ?? "";
    let cursor: string | undefined;
    try {
      do {
        signal.throwIfAborted();
        const page = await client.listNotes({ cursor, updatedAfter: full ? undefined : previous?.updatedAfter || undefined });
        for (const summary of page.notes) {
          listed.add(summary.id);
          const version = versionOf(summary);
          if (version > newest) newest = version;
          if (version && known.get(summary.id)?.version === version) continue;
          const note = await client.note(summary.id);
          if (!note) continue; // gone between the listing and the read: the prune takes it next time
          yield {
            kind: "upsert",
            itemKey: note.id,
            title: note.title ?? undefined,
            content: { bytes: new TextEncoder().encode(noteMarkdown(note)), mimeType: "text/markdown", fileName: "meeting-notes.md" },
            version: versionOf(note) || version,
          };
        }
        cursor = page.hasMore && page.cursor ? page.cursor : undefined;
      } while (cursor);
      if (full) {
        for (const key of known.keys()) {
          if (listed.has(key)) continue;
          signal.throwIfAborted();
          if (!(await client.note(key))) yield { kind: "delete", itemKey: key, reason: "the note is no longer in Granola" };
        }
      }
    } catch (e) {
      throw toConnectorError(e);
    }
    yield { kind: "cursor", cursor: JSON.stringify({ updatedAfter: newest, fullAt: full ? now : previous!.fullAt } satisfies GranolaCursor) };
  }
}

/** Checks an API key before a connection is created with it: one listing call. */
export async function validateGranolaKey(apiKey: string, o: { baseUrl?: string; fetch?: typeof fetch } = {}): Promise<void> {
  try {
    await new GranolaClient(apiKey, o).listNotes({ pageSize: 1 });
  } catch (e) {
    throw toConnectorError(e);
  }
}
