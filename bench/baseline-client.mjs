// The baseline for the benchmark: the same requests the check sends (the HEAD probe, then every
// recorded turn, conversations side by side and each one's turns in order), over node:http with a
// keep-alive agent, parsing each answer as JSON and validating nothing.
// Usage: node bench/baseline-client.mjs URL REQUESTS.json CONCURRENCY HEADERS_JSON
import { readFileSync } from 'node:fs';
import { httpSender } from './http-send.mjs';

const [url, file, concurrencyText, headersJson] = process.argv.slice(2);
const conversations = JSON.parse(readFileSync(file, 'utf8'));
const { send, close } = httpSender(url, JSON.parse(headersJson), Number(concurrencyText));

await send('HEAD');
let next = 0;
async function worker() {
  while (next < conversations.length) {
    const turns = conversations[next++];
    for (const turn of turns) await send('POST', JSON.stringify(turn));
  }
}
await Promise.all(Array.from({ length: Number(concurrencyText) }, worker));
close();
