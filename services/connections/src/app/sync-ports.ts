import type { DocumentStatus } from "@engram/kernel";
import type { Connection, ConnectionItem } from "../domain/connection";

/**
 * What a connector reports while it syncs one connection, item by item; the
 * sync engine applies each change durably (document first, then the ledger)
 * before asking for the next.
 */
export type ConnectorChange =
  /** New or changed content: (re-)import it as the item's document. */
  | {
      kind: "upsert";
      itemKey: string;
      url?: string;
      title?: string;
      /** The bytes as the provider serves them; the pipeline extracts them like an uploaded file. */
      content: { bytes: Uint8Array; mimeType: string; fileName: string };
      /** ETag, revision or content hash: equal versions are not imported again. */
      version: string;
      /** Opaque per-item state handed back on the next sync (validators, links). */
      state?: string;
    }
  /** Checked and unchanged; its state may have moved (new validators, links). */
  | { kind: "unchanged"; itemKey: string; state?: string }
  /** The provider no longer has the item (deleted, unshared, 404/410): its document goes. */
  | { kind: "delete"; itemKey: string; reason: string }
  /** This item could not be read; the sync goes on and the run records it. */
  | { kind: "failure"; itemKey: string; reason: string }
  /** Everything reported before is applied: the provider position to resume from next time. */
  | { kind: "cursor"; cursor: string };

/** A provider's sync: the changes since the known items, in an order it chooses. */
export interface Connector {
  changes(conn: Connection, known: ReadonlyMap<string, ConnectionItem>, signal: AbortSignal): AsyncIterable<ConnectorChange>;
}

/** A document a connection imported, as the connection endpoints list it. */
export interface ImportedDocument {
  id: string;
  status: DocumentStatus;
  title?: string;
  summary?: string;
  contentType?: string;
  createdAt: string;
  updatedAt: string;
}

/** Where imported items become documents: ingestion, through its gRPC API like any other client. */
export interface DocumentSink {
  /** Adds or replaces the item's document (same caller id → same document); returns the document id. */
  put(
    conn: Connection,
    item: { customId: string; title?: string; url?: string; content: { bytes: Uint8Array; mimeType: string; fileName: string } },
  ): Promise<string>;
  /** Deletes documents by id within the connection's namespace; unknown ids are not an error. */
  remove(conn: Connection, documentIds: string[]): Promise<void>;
  /** Deletes every document the connection imported; returns how many. */
  removeAll(tenantId: string, connectionId: string): Promise<number>;
  /** The documents the connection imported, newest first. */
  list(tenantId: string, connectionId: string): Promise<ImportedDocument[]>;
}
