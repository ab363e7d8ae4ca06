// An agent endpoint as a Hono app: its fetch handler runs anywhere fetch does (Node, Bun, Deno, Workers).
import { Hono } from 'hono';

export const app = new Hono();

app.post('/agent', async (c) => {
  const body = await c.req.json().catch(() => undefined);
  const message = body?.message;
  if (typeof message?.text !== 'string') return c.json({ error: 'expected { message: { text } }' }, 400);
  const text = message.choice ? `Done: ${message.choice.title}.` : 'Thanks! A barista will answer in a minute.';
  return c.json({ replies: [{ type: 'message', text }] });
});
