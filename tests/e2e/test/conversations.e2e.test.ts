import { expectErrorBody, twoTenantStack, waitDone } from "./helpers";

const KEY_A = "tenant-a-key-conversations-0123456789";
const KEY_B = "tenant-b-key-conversations-0123456789";

type Result = { memory?: string; chunk?: string };

/**
 * POST /v4/conversations: a chat thread becomes one document of its
 * container, forms memories from what its speakers said, and is updated in
 * place when re-sent with more messages (an unchanged resend changes nothing).
 */
describe("conversations", () => {
  const { a, b } = twoTenantStack(KEY_A, KEY_B);
  const memories = async (q: string) =>
    ((await a("POST", "/v4/search", { q, containerTag: "user_ada", threshold: 0 })).body.results as Result[]).map((r) => r.memory ?? "");

  it("ingests a conversation, forms memories, updates it in place, and validates its input", async () => {
    const thread = [
      { role: "user", name: "Ada", content: "I moved to Lisbon last month and I adopted a cat named Pixel." },
      { role: "assistant", content: [{ type: "text", text: "Congratulations on the move!" }] },
    ];
    const first = await a("POST", "/v4/conversations", {
      conversationId: "chat-42",
      messages: thread,
      containerTags: ["user_ada"],
      metadata: { channel: "app" },
    });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ id: expect.stringMatching(/^d_/), conversationId: "chat-42", containerTag: "user_ada", status: "queued" });
    const done = await waitDone(a, "user_ada", "conversation:chat-42", 60_000);
    expect(done.system.status).toBe("done");
    expect((await memories("where does Ada live and what is her cat called")).join(" | ")).toMatch(/Pixel/);

    // The same thread again: nothing new.
    const again = await a("POST", "/v4/conversations", {
      conversationId: "chat-42",
      messages: thread,
      containerTags: ["user_ada"],
      metadata: { channel: "app" },
    });
    expect(again.body).toMatchObject({ id: first.body.id, status: "done" });

    // The thread grew: the same document, new content, the new fact formed, the old one kept.
    const grown = await a("POST", "/v4/conversations", {
      conversationId: "chat-42",
      messages: [...thread, { role: "user", name: "Ada", content: "I also started learning the cello at the conservatory." }],
      containerTags: ["user_ada"],
    });
    expect(grown.body).toMatchObject({ id: first.body.id, status: "queued" });
    await waitDone(a, "user_ada", "conversation:chat-42", 60_000);
    expect((await memories("which instrument is Ada learning")).join(" | ")).toMatch(/cello/);
    expect((await memories("what is the name of Ada's cat")).join(" | ")).toMatch(/Pixel/);

    // Another tenant sees nothing of it.
    expect((await b("POST", "/v4/search", { q: "Pixel cat Lisbon", containerTag: "user_ada", threshold: 0 })).body.results).toEqual([]);

    for (const bad of [
      { conversationId: "c", messages: [] },
      { conversationId: "", messages: [{ role: "user", content: "hi" }] },
      { conversationId: "c", messages: [{ role: "robot", content: "hi" }] },
      { conversationId: "c", messages: [{ role: "user", content: [{ type: "image_url", imageUrl: { url: "not a url" } }] }] },
      { messages: [{ role: "user", content: "hi" }] },
    ]) {
      const res = await a("POST", "/v4/conversations", bad);
      expect(res.status).toBe(400);
      expectErrorBody(res.body);
    }
  });
});
