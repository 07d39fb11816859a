import { InvalidArgumentError } from "@engram/kernel";
import { conversationCustomId, renderConversation, validateConversation } from "../../src/domain/conversation";

describe("conversations as documents", () => {
  it("writes one speaker line per message: the name, else the role; image parts as their URL; empty messages left out", () => {
    expect(
      renderConversation([
        { role: "user", name: "Ada", content: "I moved to Lisbon.\nLast month." },
        {
          role: "assistant",
          content: [
            { type: "text", text: "Nice!" },
            { type: "image_url", url: "https://example.com/a.png" },
          ],
        },
        { role: "tool", content: "   " },
      ]),
    ).toBe("Ada: I moved to Lisbon. Last month.\nassistant: Nice! [image: https://example.com/a.png]");
  });

  it("derives a caller id from the conversation id: readable when allowed, a stable digest otherwise", () => {
    expect(conversationCustomId("chat-42")).toBe("conversation:chat-42");
    const odd = conversationCustomId("chat with spaces / slashes");
    expect(odd).toMatch(/^conversation:[0-9a-f]{40}$/);
    expect(conversationCustomId("chat with spaces / slashes")).toBe(odd);
    expect(conversationCustomId("x".repeat(255))).toMatch(/^conversation:[0-9a-f]{40}$/);
  });

  it("refuses what cannot become a document", () => {
    const bad: [string, Parameters<typeof validateConversation>[1]][] = [
      ["", [{ role: "user", content: "hi" }]],
      ["c", []],
      ["c", [{ role: "robot" as never, content: "hi" }]],
      ["c", [{ role: "user", name: "a:b", content: "hi" }]],
      ["c", [{ role: "user", content: "  " }]],
    ];
    for (const [id, messages] of bad) expect(() => validateConversation(id, messages)).toThrow(InvalidArgumentError);
    expect(() => validateConversation("c", [{ role: "user", content: "hi" }])).not.toThrow();
  });
});
