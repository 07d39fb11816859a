import { BoundedWorkerPool, workerModule } from "@engram/worker-pool";
import type { EmbedTask } from "./embed.worker";
import { type ModelFiles, modelFiles } from "./model-files";

export interface LocalEmbedderOptions {
  /** Worker threads of the document pool (default 2); the query pool has one. */
  threads?: number;
  /** Per task (a batch of texts); a task still running then fails. */
  timeoutMs?: number;
  /** The model folder (default: ENGRAM_EMBED_MODEL_DIR, else the shipped one). */
  dir?: string;
}

/** Texts per pool task: a long batch is split so the threads take turns and a task stays short. */
const TASK_TEXTS = 16;

/**
 * Cosine → evidence for this model (similarity.ts, `DenseCalibration`), applied to the cosine above
 * the query's baseline in the scope (`meaningEvidence`), measured without the scope's subject
 * (@engram/index, engine/subject.ts): evidence starts at 0.05 above the baseline and rises as
 * 1 − exp(−rise / 0.2). Chosen on the persona set and LoCoMo (bench/README.md, "Meaning without the
 * subject"): the point where LoCoMo's answer-coverage@3 and @10 peak while the persona set's
 * unanswerable questions find no more than before.
 */
export const MINILM_CALIBRATION = { floor: 0.05, full: 0.25 };

interface Pools {
  document: BoundedWorkerPool<EmbedTask, Float32Array[]>;
  query: BoundedWorkerPool<EmbedTask, Float32Array[]>;
  users: number;
}

/** One pair of pools per model folder and process: in all-in-one, memories and recall share them (one copy of the model per thread). */
const shared = new Map<string, Pools>();

/**
 * The offline semantic embedder: all-MiniLM-L6-v2 (Apache-2.0), converted once to int8 ONNX
 * (libs/embed-model/convert) and shipped in the repository, run with onnxruntime-node on worker
 * threads: model inference takes milliseconds per text of CPU and would otherwise block the thread
 * that serves requests. Two pools: documents (memories being written) and queries, so a search never
 * waits behind a formation batch. Nothing is downloaded, ever.
 */
export class LocalModelEmbedder {
  readonly id: string;
  readonly dimensions: number;
  readonly semantic = true;
  readonly calibration = MINILM_CALIBRATION;
  private readonly files: ModelFiles;
  /** Taken on the first embed: an instance only asked for its id or dimensions starts no thread. */
  private pools: Pools | undefined;
  private closed = false;

  constructor(private readonly opts: LocalEmbedderOptions = {}) {
    this.files = modelFiles(opts.dir);
    this.id = `local:${this.files.manifest.id}`;
    this.dimensions = this.files.manifest.dimensions;
  }

  private acquire(): Pools {
    if (this.pools) return this.pools;
    if (this.closed) throw new Error("the local embedder is closed");
    let pools = shared.get(this.files.dir);
    if (!pools) {
      const make = (threads: number) =>
        new BoundedWorkerPool<EmbedTask, Float32Array[]>({
          filename: workerModule(__dirname, "embed.worker", "embed.worker.ts"),
          threads,
          timeoutMs: this.opts.timeoutMs ?? 60_000,
          maxMemoryMb: 512,
          // A thread keeps its copy of the model for 10 minutes without work (loading it takes ~0.3 s).
          idleTimeoutMs: 600_000,
        });
      // Writes come in batches that split across threads (2,000 one-kilobyte documents: 20 docs/s with one
      // thread, 30 with two, on two cores); a query is one text, and one thread answers it.
      pools = { document: make(this.opts.threads ?? 2), query: make(1), users: 0 };
      shared.set(this.files.dir, pools);
    }
    pools.users++;
    return (this.pools = pools);
  }

  /**
   * Batches of TASK_TEXTS texts, as many at a time as the pool has threads
   * (the rest wait here, not in the pool's queue). `signal` stops it between
   * batches: a batch under way is never cut off (terminating a thread inside
   * onnxruntime's inference aborts the process), and it takes milliseconds.
   */
  async embed(texts: string[], kind: "document" | "query", signal?: AbortSignal): Promise<Float32Array[]> {
    if (texts.length === 0) return [];
    signal?.throwIfAborted();
    const pools = this.acquire();
    const pool = kind === "query" ? pools.query : pools.document;
    const batches: string[][] = [];
    for (let i = 0; i < texts.length; i += TASK_TEXTS) batches.push(texts.slice(i, i + TASK_TEXTS));
    const out: Float32Array[][] = new Array(batches.length);
    let next = 0;
    let failed = false;
    const lane = async () => {
      while (next < batches.length && !failed) {
        signal?.throwIfAborted();
        const i = next++;
        try {
          out[i] = await pool.run({ dir: this.files.dir, texts: batches[i]! });
        } catch (err) {
          failed = true; // the other lanes start nothing more
          throw err;
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(pool.threads, batches.length) }, lane));
    return out.flat();
  }

  /** Releases this user's hold; the pools stop when the last user of the model closes. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const pools = this.pools;
    this.pools = undefined;
    if (!pools || --pools.users > 0) return;
    shared.delete(this.files.dir);
    // The batches under way finish (never cut off inside onnxruntime: that aborts the process); they take milliseconds.
    await Promise.all([pools.document.close({ letRunningFinish: true }), pools.query.close({ letRunningFinish: true })]);
  }
}
