import { startEngram } from "@engram/testing";
import { jsonClient } from "../src/lib";
async function main() {
  const e = await startEngram({ env: { LOG_LEVEL: "warn" } });
  const api = jsonClient(e.url, e.apiKey);
  for (let i = 0; i < 5000; i += 100) {
    const memories = Array.from({ length: 100 }, (_, j) => ({
      content: `Memory number ${i + j} about topic ${(i + j) % 97} and subject ${(i + j) % 13}`,
      isStatic: (i + j) % 10 === 0,
    }));
    await api("POST", "/v4/memories", { containerTag: "p", memories });
  }
  let t = performance.now();
  for (let i = 0; i < 200; i++) await api("POST", "/v4/profile", { containerTag: "p" });
  console.log("profile ms/op", ((performance.now() - t) / 200).toFixed(2));
  t = performance.now();
  for (let i = 0; i < 200; i++) await api("POST", "/v4/search", { q: "topic 12 subject 5", containerTag: "p" });
  console.log("search ms/op", ((performance.now() - t) / 200).toFixed(2));
  await e.stop();
}
main();
