import { type Clock, systemClock } from "@engram/kernel";
import type { JsonObject } from "@engram/kernel";
import { conversationCustomId, type ConversationMessage, renderConversation, validateConversation } from "../domain/conversation";
import type { AddDocumentResult, AddDocumentUseCase } from "./add-document.usecase";

export interface IngestConversationCommand {
  tenantId: string;
  namespace: string;
  containerTags?: string[];
  conversationId: string;
  messages: ConversationMessage[];
  metadata?: JsonObject;
  requestId?: string;
  traceparent?: string;
}

/**
 * POST /v4/conversations: the conversation becomes (or updates) one document
 * of its container, as a chat transcript that forms memories (taskType
 * memory), through the same add as any document. A live conversation is
 * dated when it is sent: its "yesterday" and "next Friday" are relative to
 * that moment (memory formation anchors relative dates only on a date it is
 * given or finds in the text).
 */
export class IngestConversationUseCase {
  constructor(
    private readonly add: AddDocumentUseCase,
    private readonly clock: Clock = systemClock,
  ) {}

  execute(cmd: IngestConversationCommand): Promise<AddDocumentResult> {
    validateConversation(cmd.conversationId, cmd.messages);
    return this.add.execute({
      tenantId: cmd.tenantId,
      namespace: cmd.namespace,
      containerTags: cmd.containerTags,
      taskType: "memory",
      requestId: cmd.requestId,
      traceparent: cmd.traceparent,
      input: {
        content: renderConversation(cmd.messages),
        customId: conversationCustomId(cmd.conversationId),
        date: this.clock.now().toISOString(),
        ...(cmd.metadata ? { metadata: cmd.metadata } : {}),
      },
    });
  }
}
