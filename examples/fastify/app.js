// An agent endpoint as a Fastify app. Fastify answers a body that is not JSON with 400 on its own.
import Fastify from 'fastify';

export function buildApp() {
  // A photo comes base64-encoded in the body: a real one can be larger than Fastify's 1 MiB default.
  const app = Fastify({ bodyLimit: 25 * 1024 * 1024 });
  app.post('/agent', async (request, reply) => {
    const message = request.body?.message;
    if (typeof message?.text !== 'string') return reply.code(400).send({ error: 'expected { message: { text } }' });
    const text = message.choice ? `Done: ${message.choice.title}.` : 'Thanks! A barista will answer in a minute.';
    return { replies: [{ type: 'message', text }] };
  });
  return app;
}
