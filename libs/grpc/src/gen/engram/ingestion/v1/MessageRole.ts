// Original file: protos/engram/ingestion/v1/conversation_service.proto

export const MessageRole = {
  MESSAGE_ROLE_UNSPECIFIED: 'MESSAGE_ROLE_UNSPECIFIED',
  MESSAGE_ROLE_USER: 'MESSAGE_ROLE_USER',
  MESSAGE_ROLE_ASSISTANT: 'MESSAGE_ROLE_ASSISTANT',
  MESSAGE_ROLE_SYSTEM: 'MESSAGE_ROLE_SYSTEM',
  MESSAGE_ROLE_TOOL: 'MESSAGE_ROLE_TOOL',
} as const;

export type MessageRole =
  | 'MESSAGE_ROLE_UNSPECIFIED'
  | 0
  | 'MESSAGE_ROLE_USER'
  | 1
  | 'MESSAGE_ROLE_ASSISTANT'
  | 2
  | 'MESSAGE_ROLE_SYSTEM'
  | 3
  | 'MESSAGE_ROLE_TOOL'
  | 4

export type MessageRole__Output = typeof MessageRole[keyof typeof MessageRole]
