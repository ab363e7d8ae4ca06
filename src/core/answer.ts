/** The agent's answer body, as `spec/response.schema.json` describes it. */
export interface Answer {
  replies: Reply[];
}

export type Reply = MessageReply | ReactionReply | TemplateReply;

export type Button = string | { id: string; label: string };

export interface ListRow {
  id: string;
  title: string;
  description?: string;
}

export interface ListSection {
  title?: string;
  rows: ListRow[];
}

export interface MessageReply {
  type: 'message';
  text?: string;
  buttons?: Button[];
  list?: { button: string; sections: ListSection[] };
  link?: { url: string; label: string };
  image?: { url: string } | { data: string; mime: string };
  replyTo?: string;
}

export interface ReactionReply {
  type: 'reaction';
  emoji: string;
  messageId: string;
}

export interface TemplateReply {
  type: 'template';
  name: string;
  language: string;
  parameters?: string[];
}

/** The id a person's tap sends back: a string button's id is its label. */
export function buttonId(button: Button): string {
  return typeof button === 'string' ? button : button.id;
}

export function buttonLabel(button: Button): string {
  return typeof button === 'string' ? button : button.label;
}
