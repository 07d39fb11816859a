import { FakeGranola, type FakeJsonApi, granolaNote, type RecordedRequest, startFakeJsonApi, waitFor } from "@engram/testing";
import { type Api, twoTenantStack } from "./helpers";

const KEY_A = "tenant-a-key-filter-0123456789abcdef01";
const KEY_B = "tenant-b-key-filter-0123456789abcdef01";

type ChatBody = { messages: { role: string; content: string }[] };

/**
 * The organisation's import filter through the gateway: excludeItems
 * patterns keep matching items out, and the filter prompt, applied by an
 * OpenAI-compatible model (a local fake here), keeps out what the model
 * refuses; another tenant's settings do not apply.
 */
describe("import filter end to end", () => {
  const granola = new FakeGranola();
  let model: FakeJsonApi<ChatBody>;
  const env: Record<string, string> = { LLM_MODEL: "judge-model" };
  beforeAll(async () => {
    env.GRANOLA_API_URL = await granola.start();
    // The model refuses lunch notes and admits everything else.
    model = await startFakeJsonApi<ChatBody>((req: RecordedRequest<ChatBody>) => {
      const user = req.body.messages.find((m) => m.role === "user")?.content ?? "";
      const include = !/lunch/i.test(user);
      return {
        json: {
          id: "c1",
          object: "chat.completion",
          choices: [
            {
              index: 0,
              finish_reason: "stop",
              message: { role: "assistant", content: JSON.stringify({ include, reason: include ? "work" : "social plans" }) },
            },
          ],
        },
      };
    });
    env.LLM_BASE_URL = `${model.url}/v1`;
  });
  const { a, b } = twoTenantStack(KEY_A, KEY_B, env);
  afterAll(async () => {
    await model.close();
    await new Promise<void>((r) => granola.server.close(() => r()));
  });

  const titles = async (api: Api) => {
    const docs = (await api("POST", "/v3/connections/granola/documents", { containerTags: ["meetings"] })).body as { id: string }[];
    const out: string[] = [];
    for (const d of docs) out.push((await api("GET", `/v3/documents/${d.id}`)).body.title as string);
    return out.sort();
  };
  const synced = (api: Api, id: string) =>
    waitFor(async () => ((await api("GET", `/v3/connections/${id}`)).body.lastSyncRun?.status === "succeeded" ? true : undefined), {
      timeoutMs: 60_000,
      what: "the sync",
    });

  it("keeps out what the patterns exclude and what the model refuses, for the organisation that asked", async () => {
    for (const [id, title] of [
      ["not_1", "Hiring sync"],
      ["not_2", "Lunch plans"],
      ["not_3", "Design review"],
    ] as const)
      granola.notes.set(id, granolaNote(id, "2026-03-01T00:00:00Z", { title }));
    const patched = await a("PATCH", "/v3/settings", { excludeItems: ["Hiring*"], shouldLLMFilter: true, filterPrompt: "Keep work meetings only." });
    expect(patched.status).toBe(200);
    // A model is configured: nothing to warn about.
    expect(patched.body.warnings).toBeUndefined();

    const created = await a("POST", "/v3/connections/granola", { containerTag: "meetings", metadata: { apiKey: granola.key } });
    await synced(a, created.body.id as string);
    expect(await titles(a)).toEqual(["Design review"]);
    // The model was asked about what the pattern let through, not about the hiring note.
    const asked = model.requests.map((r) => r.body.messages.find((m) => m.role === "user")!.content);
    expect(asked.some((u) => u.includes("Lunch plans"))).toBe(true);
    expect(asked.some((u) => u.includes("Hiring sync"))).toBe(false);
    expect(asked.every((u) => u.includes("Keep work meetings only."))).toBe(true);

    // Tenant b set no filter: it imports every note.
    const theirs = await b("POST", "/v3/connections/granola", { containerTag: "meetings", metadata: { apiKey: granola.key } });
    await synced(b, theirs.body.id as string);
    expect(await titles(b)).toEqual(["Design review", "Hiring sync", "Lunch plans"]);
  });
});
