import { ConversationService, fromStruct, implement, protoEnum, requestIdOf, type ServiceImplementation, traceparentOf } from "@engram/grpc";
import type { IngestConversationUseCase } from "../app/ingest-conversation.usecase";
import type { ConversationContentPart, ConversationMessage, ConversationRole } from "../domain/conversation";
import { tenantOf } from "./mappers";

const ROLE: Record<string, ConversationRole> = {
  MESSAGE_ROLE_USER: "user",
  MESSAGE_ROLE_ASSISTANT: "assistant",
  MESSAGE_ROLE_SYSTEM: "system",
  MESSAGE_ROLE_TOOL: "tool",
};

/** engram.ingestion.v1.ConversationService: proto <-> use case mapping only. */
export function conversationGrpc(uc: IngestConversationUseCase): ServiceImplementation {
  return implement(ConversationService, {
    async IngestConversation(req, call) {
      const messages: ConversationMessage[] = req.messages.map((m) => ({
        role: ROLE[String(m.role)] ?? ("unknown" as ConversationRole),
        content:
          m.content === "parts"
            ? (m.parts?.parts ?? []).map((p): ConversationContentPart =>
                String(p.type) === "CONTENT_PART_TYPE_IMAGE_URL" ? { type: "image_url", url: p.imageUrl } : { type: "text", text: p.text },
              )
            : (m.text ?? ""),
        ...(m.name ? { name: m.name } : {}),
      }));
      const res = await uc.execute({
        tenantId: tenantOf(req.context),
        namespace: req.containerTags[0] ?? "",
        containerTags: req.containerTags,
        conversationId: req.conversationId,
        messages,
        metadata: fromStruct(req.metadata),
        requestId: requestIdOf(call),
        traceparent: traceparentOf(call),
      });
      return { id: res.id, status: protoEnum.status.to(res.status), conversationId: req.conversationId, namespace: res.namespace };
    },
  });
}
