/*
 * Runs LocalModelEmbedder the way the services do: TypeScript under `node --import tsx`, worker
 * threads loading embed.worker.ts. Started by encoder.test.ts (jest cannot run TypeScript in worker
 * threads); prints one JSON object.
 */
import { LocalModelEmbedder, modelFiles, SentenceEncoder } from "../src";

async function main() {
  const texts = Array.from({ length: 20 }, (_, i) => `Fact number ${i}: Mirela Horvat keeps ${i + 2} hens in her garden.`);
  const embedder = new LocalModelEmbedder({ threads: 1 });
  const second = new LocalModelEmbedder({ threads: 1 }); // shares the pools
  const [docs, queries] = await Promise.all([embedder.embed(texts, "document"), second.embed(texts.slice(0, 3), "query")]);
  const encoder = await SentenceEncoder.load(modelFiles());
  const direct = await encoder.embed(texts);
  const [q, moved, vet, hens, animals, food, movie] = await encoder.embed([
    "where does Mirela live",
    "Mirela Horvat moved to Ljubljana in March 2024.",
    "Mirela Horvat is a veterinary surgeon.",
    "Mirela Horvat keeps three hens in her garden.",
    "does Mirela have animals",
    "A man is eating food.",
    "The new movie is awesome.",
  ]);
  const cos = (a: Float32Array | undefined, b: Float32Array | undefined) => a!.reduce((s, x, i) => s + x * b![i]!, 0);
  const [alone] = await encoder.embed(["Mirela Horvat sings in a jazz choir."]);
  const [, withOthers] = await encoder.embed(["something else entirely, and much longer than the other text", "Mirela Horvat sings in a jazz choir."]);
  await encoder.close();
  const same =
    docs.every((v, i) => v.length === direct[i]!.length && v.every((x, j) => x === direct[i]![j])) &&
    queries.every((v, i) => v.every((x, j) => x === direct[i]![j]));
  await second.close();
  await embedder.close();
  // The process stopping: a long embedding is abandoned between batches (the one under way finishes), and closing the
  // pools while a batch runs lets it finish instead of cutting onnxruntime off (which would abort this process).
  const stopping = new LocalModelEmbedder({ threads: 1 });
  const many = Array.from({ length: 4000 }, (_, i) => `Sentence ${i} about the harbour survey and the ferry timetable.`);
  const stop = new AbortController();
  const abandoned = stopping.embed(many, "document", stop.signal).then(
    () => "finished",
    (err: Error) => err.message,
  );
  setTimeout(() => stop.abort(new Error("the process is stopping")), 500);
  const abort = await abandoned;
  const inFlight = stopping.embed(many.slice(0, 64), "document").then(
    () => "finished",
    () => "rejected",
  );
  await new Promise((r) => setTimeout(r, 20));
  await stopping.close();
  const closedMidBatch = await inFlight;
  console.log(
    JSON.stringify({
      abort,
      closedMidBatch,
      same,
      count: docs.length,
      dims: embedder.dimensions,
      id: embedder.id,
      semantic: embedder.semantic,
      norms: [q, moved, vet].map((v) => Math.sqrt(cos(v, v))),
      cos: { liveMoved: cos(q, moved), liveVet: cos(q, vet), animalsHens: cos(animals, hens), animalsMoved: cos(animals, moved), foodMovie: cos(food, movie) },
      batchIndependent: alone!.every((x, i) => x === withOthers![i]),
    }),
  );
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
