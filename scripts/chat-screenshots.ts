/**
 * The screenshots of docs/chat.md, made from the real page: the chat server in front of the chat
 * test agent (fixtures/agents/chat-agent.ts), the same conversation typed on each platform in the
 * Chromium the browser tests use, each phone written to docs/chat/chat-PLATFORM.png.
 * `node --import tsx scripts/chat-screenshots.ts`
 */
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chatAgent } from '../fixtures/agents/chat-agent.js';
import { serveAgent } from '../src/example-agent/serve-agent.js';
import { chatServer } from '../src/chat/chat-server.js';
import { PLATFORM_NAMES } from '../src/generated/platform-names.js';
import { launchChromium } from '../test/chromium.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'docs/chat');
mkdirSync(out, { recursive: true });

const agent = await serveAgent(chatAgent);
const server = await chatServer(agent.url, { env: {} });
const browser = await launchChromium();
try {
  for (const platform of PLATFORM_NAMES) {
    const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    page.setDefaultTimeout(60_000);
    await page.goto(server.url);
    await page.locator('#channel').selectOption(platform);
    const phone = page.locator(`section.conversation[data-channel="${platform}"]`);
    await phone.waitFor();
    let turns = 0;
    for (const text of ['menu please', 'too many buttons']) {
      await page.locator('#composer-text').fill(text);
      await page.keyboard.press('Enter');
      await phone.locator(`.turn-details[data-turn="${turns++}"]`).waitFor();
    }
    // A tap of the first answer's first button, where the platform shows buttons at all (SMS and iMessage do not).
    const tap = phone.locator('button.tap[data-turn="0"]').first();
    if ((await tap.count()) > 0) {
      await tap.click();
      await phone.locator(`.turn-details[data-turn="${turns}"]`).waitFor();
    }
    // The message box stays at the foot of the window as one scrolls; in a picture of the whole phone it would cover a part.
    await page.evaluate("document.getElementById('composer').style.position = 'static'");
    const file = join(out, `chat-${platform}.png`);
    await phone.screenshot({ path: file });
    process.stdout.write(`wrote ${file}\n`);
    await page.close();
  }
} finally {
  await browser.close();
  await server.close();
  await agent.close();
}
