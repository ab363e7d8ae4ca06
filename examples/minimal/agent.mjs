// A minimal agent for the agent endpoint contract, with Node's node:http only.
//
//   PORT=8080 node examples/minimal/agent.mjs
//   npx --yes --package ./check-endpoint-0.1.0.tgz check-endpoint http://127.0.0.1:8080/agent
//
// It answers HEAD (the check's first request), takes bodies up to 8 MiB (the contract promises
// 7 MB: a 5 MB photo as base64, plus the JSON around it), refuses a body that is not a request
// with 400 naming what is wrong, and answers every message with one text reply.
import { createServer } from 'node:http';

const MAX_BODY_BYTES = 8 * 1024 * 1024;

/** What is wrong with a request body, after spec/request.schema.json's required fields; [] when nothing. */
function problemsOf(request) {
  if (typeof request !== 'object' || request === null || Array.isArray(request)) return ['the body must be a JSON object'];
  const problems = [];
  for (const field of ['conversationId', 'messageId', 'channel']) {
    if (typeof request[field] !== 'string' || request[field] === '') problems.push(`${field} must be a non-empty string`);
  }
  const message = request.message;
  if (typeof message !== 'object' || message === null || Array.isArray(message)) problems.push('message must be an object');
  else if (typeof message.text !== 'string') problems.push('message.text must be a string ("" for a photo or a tap)');
  return problems;
}

/** The replies to one message: your agent's logic goes here. */
function repliesTo(message) {
  if (message.text === '') return [{ type: 'message', text: 'Thanks, I got your file.' }];
  return [{ type: 'message', text: 'Thanks for your message! How can I help?' }];
}

function answer(response, status, body) {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

const server = createServer((request, response) => {
  if (request.method !== 'POST') {
    // HEAD (and GET) get 200: any answer tells the check the agent is there.
    return answer(response, request.method === 'HEAD' || request.method === 'GET' ? 200 : 405, { replies: [] });
  }
  const chunks = [];
  let size = 0;
  request.on('data', (chunk) => {
    size += chunk.length;
    if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    else if (!response.headersSent) {
      // Answer at once; the rest of the body is read and dropped, then the connection closes.
      response.setHeader('connection', 'close');
      answer(response, 413, { error: `the body is over ${MAX_BODY_BYTES} bytes` });
    }
  });
  request.on('end', () => {
    if (response.headersSent) return;
    let body;
    try {
      body = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks)));
    } catch {
      return answer(response, 400, { error: 'the body is not UTF-8 JSON' });
    }
    const problems = problemsOf(body);
    if (problems.length > 0) return answer(response, 400, { error: problems.join('; ') });
    answer(response, 200, { replies: repliesTo(body.message) });
  });
});

server.listen(Number(process.env.PORT ?? 8080), '127.0.0.1', () => {
  console.log(`listening on http://127.0.0.1:${server.address().port}/agent`);
});
