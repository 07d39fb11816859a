import { startEngram } from "@engram/testing";
import { jsonClient, prng } from "../src/lib";
async function main() {
  const e = await startEngram({ env: { LOG_LEVEL: "warn" } });
  const api = jsonClient(e.url, e.apiKey);
  const names = ["Sarah", "Omar", "Lena", "Kenji", "Ana", "Tom", "Priya", "Max"];
  const cities = ["Seattle", "Lisbon", "Osaka", "Denver", "Nairobi", "Lyon", "Austin", "Perth"];
  const docs = Array.from({ length: 600 }, (_, i) => {
    const r = prng(i);
    const p = <T>(x: T[]) => x[Math.floor(r() * x.length)]!;
    return {
      id: `c${i}`,
      content: `user: Hi, I'm ${p(names)}. I work as a nurse and I live in ${p(cities)}.\nassistant: Nice!\nuser: I love hiking and I have a dog named Rex.\nuser: My sister moved to ${p(cities)} last month.`,
    };
  });
  const t = performance.now();
  const res = await api("POST", "/ns/f/document/batch", { documents: docs });
  for (;;) {
    const p = await api("GET", "/v3/documents/processing");
    if (p.body.totalCount === 0) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  console.log("docs/s", (600 / ((performance.now() - t) / 1000)).toFixed(1), res.status);
  await e.stop();
}
main();
