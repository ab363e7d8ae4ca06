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

/** A file a person sends, inline as base64. */
export type Attachment = NonNullable<PersonMessage['attachments']>[number];

/**
 * An attachment as reports record it: its `data` inline when it is short, otherwise its decoded
 * size and SHA-256 digest in its place, so a report never carries a photo's base64.
 */
export type RecordedAttachment = Omit<Attachment, 'data'> & ({ data: string } | { dataBytes: number; dataSha256: string });

/** A person's message as reports record it. */
export interface RecordedMessage extends Omit<PersonMessage, 'attachments'> {
  attachments?: RecordedAttachment[];
}

/** A request body as reports record it (see `RecordedAttachment`). */
export interface RecordedRequest extends Omit<AgentRequest, 'message'> {
  message: RecordedMessage;
}
