import { startEngram } from "@engram/testing";
import { jsonClient, percentile } from "../src/lib";
async function main() {
  const e = await startEngram({ env: { LOG_LEVEL: "warn" } });
  const api = jsonClient(e.url, e.apiKey);
  await api("POST", "/v4/memories", { containerTag: "p", memories: [{ content: "hello world" }] });
  for (const [name, fn] of [
    ["healthz", () => api("GET", "/healthz")],
    ["readyz", () => api("GET", "/readyz")],
    ["profile-buckets (grpc->grpc)", () => api("POST", "/v4/profile/buckets", { containerTag: "p" })],
    ["list memories (grpc)", () => api("POST", "/v4/memories/list", { containerTags: ["p"] })],
    ["search", () => api("POST", "/v4/search", { q: "hello", containerTag: "p" })],
  ] as const) {
    const lat: number[] = [];
    for (let i = 0; i < 300; i++) {
      const t = performance.now();
      await fn();
      lat.push(performance.now() - t);
    }
    console.log(name.padEnd(30), "p50", percentile(lat, 50).toFixed(2), "p95", percentile(lat, 95).toFixed(2));
  }
  await e.stop();
}
main();
