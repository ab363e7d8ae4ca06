// The baseline for the benchmark: the same requests the check sends (the HEAD probe, then every
// recorded turn, conversations side by side and each one's turns in order), over node:http with a
// keep-alive agent, parsing each answer as JSON and validating nothing.
// Usage: node bench/baseline-client.mjs URL REQUESTS.json CONCURRENCY
import http from 'node:http';
import { readFileSync } from 'node:fs';

const [url, file, concurrencyText] = process.argv.slice(2);
const conversations = JSON.parse(readFileSync(file, 'utf8'));
const agent = new http.Agent({ keepAlive: true, maxSockets: Number(concurrencyText) });

function send(method, body) {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method, agent, headers: body ? { 'content-type': 'application/json' } : {} }, (response) => {
      const chunks = [];
      response.on('data', (chunk) => chunks.push(chunk));
      response.on('end', () => resolve(method === 'HEAD' ? null : JSON.parse(Buffer.concat(chunks).toString('utf8'))));
    });
    request.on('error', reject);
    request.end(body);
  });
}

await send('HEAD');
let next = 0;
async function worker() {
  while (next < conversations.length) {
    const turns = conversations[next++];
    for (const turn of turns) await send('POST', JSON.stringify(turn));
  }
}
await Promise.all(Array.from({ length: Number(concurrencyText) }, worker));
agent.destroy();
