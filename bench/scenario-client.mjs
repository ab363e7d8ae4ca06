// The baseline for (g): the team scenarios' openings as a bare client plays them, each scenario on
// each of its channels one conversation, all at once: a message with after_ms goes that long after
// the one before it was sent, one without after the answer to the one before; node:http with a
// keep-alive agent, each answer parsed as JSON and nothing validated.
// Usage: node bench/scenario-client.mjs URL CONVERSATIONS.json HEADERS_JSON
// (CONVERSATIONS.json: [[{ "body": {...request}, "afterMs": 1200 | null }, ...], ...])
import { readFileSync } from 'node:fs';
import { httpSender } from './http-send.mjs';

const [url, file, headersJson] = process.argv.slice(2);
const conversations = JSON.parse(readFileSync(file, 'utf8'));
const { send, close } = httpSender(url, JSON.parse(headersJson));

const pause = (ms) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

async function play(turns) {
  const answers = [];
  let sentAt = performance.now();
  for (const { body, afterMs } of turns) {
    if (afterMs !== null) await pause(sentAt + afterMs - performance.now());
    else if (answers.length) await answers.at(-1);
    sentAt = performance.now();
    answers.push(send('POST', JSON.stringify(body)));
  }
  await Promise.all(answers);
}

await send('HEAD');
await Promise.all(conversations.map(play));
close();
