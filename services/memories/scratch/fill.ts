import fs from "node:fs";
import { HashingEmbedder, SearchEngine, SqliteChunkIndex, type IndexedChunk } from "@engram/index";
import { SqliteMemoryStore } from "../src/adapters/embedded/memory.sqlite";
import { createMemory } from "../src/domain/memory";
import { newId } from "@engram/kernel";
import { prng } from "../../../bench/src/lib";
import { loadCranfield, loadMsmarco } from "../../../bench/src/quality/datasets";

const dir = process.argv[2]!;
const CHUNKS = Number(process.argv[3] ?? 100000);
const MEMS = Number(process.argv[4] ?? 50000);
fs.mkdirSync(dir, { recursive: true });
const ms = loadMsmarco();
const cr = loadCranfield();
const sentences = [...ms.docs, ...cr.docs]
  .flatMap((d) => d.text.split(/(?<=[.!?])\s+/))
  .map((s) => s.replace(/\s+/g, " ").trim())
  .filter((s) => s.length > 30 && s.length < 400);
const rand = prng(42);
const pick = () => sentences[Math.floor(rand() * sentences.length)]!;
async function main() {
  const idx = new SqliteChunkIndex(dir);
  const emb = new HashingEmbedder(384);
  const now = new Date().toISOString();
  let t = performance.now();
  for (let d = 0; d < CHUNKS / 5; d++) {
    const docId = newId("document");
    const chunks: IndexedChunk[] = [];
    for (let p = 0; p < 5; p++) {
      let text = "";
      while (text.length < 700) text += (text ? " " : "") + pick();
      chunks.push({
        id: newId("chunk"),
        tenantId: "default",
        namespace: "bench-chunks",
        documentId: docId,
        position: p,
        content: text,
        startOffset: 0,
        endOffset: text.length,
        tokenCount: 128,
        vector: emb.embedOne(text),
        model: emb.id,
        document: { title: `doc ${d}`, contentType: "text", createdAt: now, updatedAt: now },
        createdAt: now,
      });
    }
    await idx.replaceDocumentChunks("default", "bench-chunks", docId, chunks);
  }
  console.log("chunks", CHUNKS, ((performance.now() - t) / 1000).toFixed(1), "s");
  await idx.close();
  const store = new SqliteMemoryStore(dir, { engine: (load) => new SearchEngine({ load }), vectors: false });
  t = performance.now();
  for (let i = 0; i < MEMS; i += 500) {
    const records = Array.from({ length: 500 }, (_, j) =>
      createMemory({ id: newId("memory"), tenantId: "default", namespace: "bench-memories", content: `${pick()} (${i + j})`, isStatic: rand() < 0.2, now }),
    );
    await store.write({ records });
  }
  for (let i = 0; i < 5000; i += 500) {
    const records = Array.from({ length: 500 }, (_, j) =>
      createMemory({ id: newId("memory"), tenantId: "default", namespace: "bench-profile", content: `${pick()} (${i + j})`, isStatic: rand() < 0.1, now }),
    );
    await store.write({ records });
  }
  console.log("memories", MEMS, ((performance.now() - t) / 1000).toFixed(1), "s");
  await store.close();
}
main();
