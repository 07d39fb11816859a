import { extractFacts } from "../src";
it("x", () => {
  for (const t of ["user: I am Sarah and I was just promoted to VP of Product.", "I am Sarah and I was just promoted to VP of Product.", "user: I am Sarah. I was just promoted to VP of Product.", "user: I'm Sarah and I live in Seattle.", "user: I am a nurse and I live in Portland."]) {
    const f = extractFacts({ chunks: [{ position: 0, content: t }], referenceDate: "2026-11-20T10:00:00Z" } as any);
    console.log(t, "=>", JSON.stringify(f.map((x) => x.content)));
  }
});
