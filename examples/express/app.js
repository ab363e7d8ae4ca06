// An agent endpoint as an Express app: POST /agent takes the person's message and answers with replies.
import express from 'express';

export const app = express();
// A photo comes base64-encoded in the body: a real one is larger than express.json()'s 100 kB default.
app.use(express.json({ limit: '25mb' }));

app.post('/agent', (request, response) => {
  const message = request.body?.message;
  if (typeof message?.text !== 'string') return response.status(400).json({ error: 'expected { message: { text } }' });
  const text = message.choice ? `Done: ${message.choice.title}.` : 'Thanks! A barista will answer in a minute.';
  response.json({ replies: [{ type: 'message', text }] });
});
