import * as S from "../../src/routes/schemas";
import { v3Search, v4Search } from "../../src/routes/schemas";
import { containerTagMerge, mergeRequest } from "../../src/routes/container-tags.routes";
import { resetBody } from "../../src/routes/settings.routes";

const messages = (r: { success: boolean; error?: { issues: { message: string }[] } }) => (r.error?.issues ?? []).map((i) => i.message);

describe("request schemas name the real problem", () => {
  it("a required string: absent is 'required', another type is 'must be a string', too long says so", () => {
    expect(messages(v4Search.safeParse({}))).toContain("q is required");
    expect(messages(v4Search.safeParse({ q: 1 }))).toEqual(["q must be a string"]);
    const long = messages(v4Search.safeParse({ q: "x".repeat(10_001) }));
    expect(long).toHaveLength(1);
    expect(long[0]).not.toMatch(/required|must be a string/);
    expect(messages(v3Search.safeParse({ q: ["a"] }))).toEqual(["q must be a string"]);
  });
});

/** The shape of an object schema, through refinements (zod 4 keeps the object's shape on its def). */
const shapeOf = (schema: unknown): string[] => Object.keys((schema as { shape?: Record<string, unknown> }).shape ?? {});

/**
 * Every field of every request type of the official `supermemory` SDK the tests
 * use (4.24.2: its resources/*.d.ts *Params types), by route. The SDK sends only
 * what its caller passes, so with strict bodies (docs/api-decisions.md section 20)
 * a field missing here would be a 400 for a valid SDK call.
 */
const SDK_4_24_2_FIELDS: [route: string, schema: unknown, fields: string[]][] = [
  [
    "POST /v3/documents (add, documents.add)",
    S.v3Document,
    ["content", "containerTag", "containerTags", "customId", "entityContext", "filepath", "metadata", "taskType"],
  ],
  [
    "POST /v3/documents/batch (documents.batchAdd)",
    S.v3BatchEnvelope,
    ["documents", "containerTag", "containerTags", "content", "filepath", "metadata", "taskType"],
  ],
  ["PATCH /v3/documents/{id} (documents.update)", S.v3Patch, ["containerTag", "containerTags", "content", "customId", "filepath", "metadata", "taskType"]],
  ["POST /v3/documents/list (documents.list)", S.v3ListBody, ["containerTags", "filepath", "filters", "includeContent", "limit", "order", "page", "sort"]],
  ["DELETE /v3/documents/bulk (documents.deleteBulk)", S.v3BulkDeleteBody, ["containerTags", "filepath", "ids"]],
  [
    "POST /v3/documents/file (documents.uploadFile)",
    S.v3FileParts,
    ["containerTag", "containerTags", "filepath", "fileType", "metadata", "mimeType", "taskType", "useAdvancedProcessing"],
  ],
  ["DELETE /v4/memories (memories.forget)", S.v4ForgetMemory, ["containerTag", "id", "content", "reason"]],
  [
    "PATCH /v4/memories (memories.updateMemory)",
    S.v4UpdateMemory,
    ["containerTag", "newContent", "id", "content", "forgetAfter", "forgetReason", "metadata", "temporalContext"],
  ],
  [
    "POST /v3/search (search.documents, search.execute)",
    S.v3Search,
    [
      "q",
      "categoriesFilter",
      "chunkThreshold",
      "containerTag",
      "containerTags",
      "docId",
      "documentThreshold",
      "filepath",
      "filters",
      "includeFullDocs",
      "includeSummary",
      "limit",
      "onlyMatchingChunks",
      "rerank",
      "rewriteQuery",
    ],
  ],
  [
    "POST /v4/search (search.memories)",
    S.v4Search,
    ["q", "aggregate", "containerTag", "filepath", "filters", "include", "limit", "rerank", "rewriteQuery", "searchMode", "threshold"],
  ],
  ["POST /v4/profile (profile)", S.v4Profile, ["containerTag", "filters", "q", "threshold"]],
  [
    "POST /v3/connections/{provider} (connections.create)",
    S.createConnectionBody,
    ["containerTag", "containerTags", "documentLimit", "metadata", "redirectUrl"],
  ],
  ["POST /v3/connections/list (connections.list)", S.listConnectionsBody, ["containerTags"]],
  ["POST /v3/connections/{id}/configure (connections.configure)", S.configureBody, ["resources"]],
  ["DELETE /v3/connections/{provider} (connections.deleteByProvider)", S.providerTagsBody, ["containerTags"]],
  ["POST /v3/connections/{provider}/connection (connections.getByTag)", S.providerTagsBody, ["containerTags"]],
  ["POST /v3/connections/{provider}/import (connections.import)", S.optionalProviderTagsBody, ["containerTags"]],
  ["POST /v3/connections/{provider}/documents (connections.listDocuments)", S.optionalProviderTagsBody, ["containerTags"]],
  [
    "PATCH /v3/settings (settings.update)",
    S.orgSettingsPatch,
    [
      "chunkSize",
      "excludeItems",
      "filterPrompt",
      "githubClientId",
      "githubClientSecret",
      "githubCustomKeyEnabled",
      "googleDriveClientId",
      "googleDriveClientSecret",
      "googleDriveCustomKeyEnabled",
      "includeItems",
      "notionClientId",
      "notionClientSecret",
      "notionCustomKeyEnabled",
      "onedriveClientId",
      "onedriveClientSecret",
      "onedriveCustomKeyEnabled",
      "shouldLLMFilter",
    ],
  ],
];

describe("one rule for unknown body fields (docs/api-decisions.md section 20)", () => {
  it.each(SDK_4_24_2_FIELDS)("%s: every field the supermemory SDK can send is a known field", (_route, schema, fields) => {
    const known = new Set(shapeOf(schema));
    expect(known.size).toBeGreaterThan(0);
    expect(fields.filter((f) => !known.has(f))).toEqual([]);
  });

  it("the aliases of the description's cURL samples are known, and one form is required", () => {
    expect(S.v4Conversation.safeParse({ messages: [{ role: "user", content: "hi" }], containerTag: "user_123", customId: "chat_1" }).success).toBe(true);
    expect(messages(S.v4Conversation.safeParse({ messages: [{ role: "user", content: "hi" }] }))).toEqual([
      "conversationId is required (or its alias customId)",
    ]);
    expect(S.v4Conversation.safeParse({ messages: [{ role: "user", content: "hi" }], conversationId: "a", customId: "a" }).success).toBe(false);
    expect(
      S.conversationRequest(
        S.v4Conversation.parse({ messages: [{ role: "user", content: "hi" }], customId: "c", containerTag: "t", containerTags: ["u", "t"] }),
      ),
    ).toMatchObject({
      conversationId: "c",
      containerTags: ["t", "u"],
    });
    expect(mergeRequest(containerTagMerge.parse({ from: "user_old", to: "user_123" }))).toEqual({
      containerTags: ["user_old", "user_123"],
      targetContainerTag: "user_123",
    });
    expect(containerTagMerge.safeParse({ from: "a", to: "a" }).success).toBe(false);
    expect(containerTagMerge.safeParse({ from: "a" }).success).toBe(false);
    expect(containerTagMerge.safeParse({ from: "a", to: "b", targetContainerTag: "b" }).success).toBe(false);
    expect(containerTagMerge.safeParse({ containerTags: ["a", "b"], targetContainerTag: "b" }).success).toBe(true);
  });

  it("/v4/search and the reset body refuse unknown fields, naming them, like every other body", () => {
    const unknown = (r: { error?: { issues: { code: string; keys?: string[] }[] } }) =>
      r.error?.issues.filter((i) => i.code === "unrecognized_keys").flatMap((i) => i.keys);
    expect(unknown(v4Search.safeParse({ q: "x", containerTagz: "user_123" }))).toEqual(["containerTagz"]);
    expect(unknown(resetBody.safeParse({ confirmation: "org", everything: true }))).toEqual(["everything"]);
  });
});
