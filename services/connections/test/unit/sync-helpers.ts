import type { Connector, ConnectorChange, DocumentSink } from "../../src/app/sync-ports";
import type { Connection, ConnectionItem } from "../../src/domain/connection";

/** Documents kept in memory: the caller id decides which document an import replaces. */
export class MemorySink implements DocumentSink {
  readonly docs = new Map<string, { id: string; connectionId: string; title?: string; text?: string }>();
  private n = 0;
  failFor = new Set<string>();
  async put(conn: Connection, item: { customId: string; title?: string; content: { bytes: Uint8Array } }) {
    if (this.failFor.has(item.title ?? "")) throw new Error(`ingestion refused ${item.title}`);
    const existing = this.docs.get(item.customId);
    const id = existing?.id ?? `d_${++this.n}`;
    this.docs.set(item.customId, { id, connectionId: conn.id, title: item.title, text: new TextDecoder().decode(item.content.bytes) });
    return id;
  }
  async remove(_conn: Connection, ids: string[]) {
    for (const [k, v] of this.docs) if (ids.includes(v.id)) this.docs.delete(k);
  }
  async removeAll(_t: string, connectionId: string) {
    let n = 0;
    for (const [k, v] of this.docs) {
      if (v.connectionId !== connectionId) continue;
      this.docs.delete(k);
      n++;
    }
    return n;
  }
  async list() {
    return [];
  }
}

/** Every change the connector yields for the connection, the items in `known` being those it imported before. */
export async function collectChanges(connector: Connector, c: Connection, known: Map<string, ConnectionItem> = new Map()): Promise<ConnectorChange[]> {
  const out: ConnectorChange[] = [];
  for await (const ch of connector.changes(c, known, new AbortController().signal)) out.push(ch);
  return out;
}
