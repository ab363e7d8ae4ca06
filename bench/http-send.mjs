// One request as the bare clients of the benchmark send it: node:http through a keep-alive agent,
// with the headers the check sends (its user-agent, accept and accept-encoding, given by run.ts from
// src/http/sent-headers.ts), the answer read whole and parsed as JSON (nothing validated); HEAD's
// answer is null.
import http from 'node:http';

/** A send(method, body) for the agent at `url`, each request with `headers`, and the agent to destroy when done. */
export function httpSender(url, headers, maxSockets = Infinity) {
  const agent = new http.Agent({ keepAlive: true, maxSockets });
  const send = (method, body) =>
    new Promise((resolve, reject) => {
      const request = http.request(
        url,
        { method, agent, headers: body ? { ...headers, 'content-type': 'application/json' } : headers },
        (response) => {
          const chunks = [];
          response.on('data', (chunk) => chunks.push(chunk));
          response.on('end', () => resolve(method === 'HEAD' ? null : JSON.parse(Buffer.concat(chunks).toString('utf8'))));
        },
      );
      request.on('error', reject);
      request.end(body);
    });
  return { send, close: () => agent.destroy() };
}
