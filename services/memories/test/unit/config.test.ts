import { ConfigError } from "@engram/config";
import { loadMemoriesConfig } from "../../src/config";

describe("memories configuration", () => {
  it("defaults to the offline language components and the hashing embedder", () => {
    const c = loadMemoriesConfig({});
    expect(c).toMatchObject({ EXTRACTOR: "offline", MEMORY_RELATOR: "offline", EMBEDDER: "hashing", MEMORY_EXPIRY_SWEEP_MS: 60_000 });
  });

  it("refuses an OpenAI-compatible component without a server and model, naming every problem at once", () => {
    let err: unknown;
    try {
      loadMemoriesConfig({ EXTRACTOR: "openai", EMBEDDER: "openai", MEMORY_EXPIRY_SWEEP_MS: "5" });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    const problems = (err as ConfigError).problems.join("\n");
    expect(problems).toMatch(/LLM_BASE_URL: is required when EXTRACTOR=openai/);
    expect(problems).toMatch(/LLM_MODEL: is required/);
    expect(problems).toMatch(/EMBEDDING_BASE_URL: is required when EMBEDDER=openai/);
    expect(problems).toMatch(/MEMORY_EXPIRY_SWEEP_MS/);
  });
});
