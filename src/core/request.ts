/** What the person sends, as `spec/request.schema.json` describes `message`. */
export interface PersonMessage {
  text: string;
  attachments?: { kind: 'image' | 'audio' | 'video' | 'document'; mime: string; name: string; data: string }[];
  choice?: { id: string; title: string };
  replyTo?: { messageId: string; from: 'agent' | 'person'; text: string };
}

/** The body of one POST to the agent. */
export interface AgentRequest {
  conversationId: string;
  messageId: string;
  channel: string;
  message: PersonMessage;
}
