import { type Request, Router } from "express";
import { protoEnum, toStruct } from "@engram/grpc";
import type { Backends } from "../http/backends";
import { callContext } from "../http/context";
import { conversationRequest, v4Conversation } from "./schemas";

const ROLE = { user: "MESSAGE_ROLE_USER", assistant: "MESSAGE_ROLE_ASSISTANT", system: "MESSAGE_ROLE_SYSTEM", tool: "MESSAGE_ROLE_TOOL" } as const;

/**
 * POST /v4/conversations: a conversation ingested or updated as one document
 * of its container (the first of containerTags, else the default container).
 * The answer (the description gives none) says which document and its state.
 */
export function conversationRoutes(b: Backends, opts: { defaultNamespace: string }): Router {
  const r = Router();
  r.post("/v4/conversations", async (req: Request, res) => {
    const body = conversationRequest(v4Conversation.parse(req.body));
    const containerTags = body.containerTags?.length ? body.containerTags : [opts.defaultNamespace];
    const out = await b.conversations.IngestConversation(
      {
        context: callContext(req),
        conversationId: body.conversationId,
        containerTags,
        metadata: toStruct(body.metadata),
        messages: body.messages.map((m) => ({
          role: ROLE[m.role],
          ...(typeof m.content === "string"
            ? { text: m.content }
            : {
                parts: {
                  parts: m.content.map((p) =>
                    p.type === "text"
                      ? { type: "CONTENT_PART_TYPE_TEXT" as const, text: p.text }
                      : { type: "CONTENT_PART_TYPE_IMAGE_URL" as const, imageUrl: p.imageUrl.url },
                  ),
                },
              }),
          ...(m.name ? { name: m.name } : {}),
          ...(m.tool_call_id ? { toolCallId: m.tool_call_id } : {}),
        })),
      },
      req,
    );
    res.json({ id: out.id, conversationId: out.conversationId, containerTag: out.namespace, status: protoEnum.status.from(out.status) });
  });
  return r;
}
