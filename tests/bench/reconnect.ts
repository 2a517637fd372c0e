// Online again → missed messages painted: Alice's panel is open on messaging:general, her network
// goes away (the browser offline, its socket closed by the bench, new ones refused until it is
// back), Bob sends 40 messages through the site owner's server SDK meanwhile, and the SDK's
// reconnect attempts fail at least twice. We time, in the page, from the browser's `online` event
// to the painted frame that shows the 40th. Ours only, for now: the peer's page is not yet set up
// for an outage routed through the bench.
import { StreamChat } from 'stream-chat';
import type { Browser } from 'playwright-core';
import { controlNetwork } from '../e2e/network';
import { API_KEY, API_SECRET, startBenchServer } from './backend';
import { launchChromium } from './browser';
import { median, percentile } from './stats';
import type { BenchRow } from './types';

const REPEATS = 10;
const MISSED = 40;
/** The words: everything missed shown within a second of the connection being healthy; reconnecting takes some of that. */
const BUDGET_P90_MS = 2000;

/** In the page: when `online` fires, and the frame after which a message with `text` is in the panel. */
const WATCH = `(text) => new Promise((resolve) => {
  let back = NaN;
  addEventListener('online', () => { back = performance.now(); }, { once: true });
  const root = document.querySelector('chat-widget').shadowRoot;
  const look = () => {
    const shown = [...root.querySelectorAll('.message-text')].some((el) => el.textContent.includes(text));
    if (shown) requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - back)));
    else setTimeout(look, 5);
  };
  look();
})`;

async function once(browser: Browser, url: string, owner: StreamChat, round: number): Promise<number> {
  const context = await browser.newContext({ viewport: { width: 1200, height: 860 } });
  const network = await controlNetwork(context);
  try {
    const page = await context.newPage();
    await page.goto(`${url}/?user=alice`);
    await page.locator('chat-widget [part~="launcher"]').click();
    await page.locator('chat-widget [part~="message-list"]').waitFor();
    await network.cut();
    const texts = Array.from({ length: MISSED }, (_, i) => `Missed ${i + 1} of ${MISSED}, round ${round}, ${Date.now()}`);
    for (const text of texts) await owner.channel('messaging', 'general').sendMessage({ text, user_id: 'bob' });
    const deadline = Date.now() + 20_000;
    while (network.refused < 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    const painted = page.evaluate(`(${WATCH})(${JSON.stringify(texts.at(-1))})`) as Promise<number>;
    await network.restore();
    return await Promise.race([painted, new Promise<number>((resolve) => setTimeout(() => resolve(Number.NaN), 15_000))]);
  } finally {
    await context.close();
  }
}

export default async function reconnect(): Promise<BenchRow[]> {
  const [browser, server] = await Promise.all([launchChromium(), startBenchServer(process.cwd())]);
  const owner = new StreamChat(API_KEY, API_SECRET, { baseURL: server.url });
  try {
    const samples: number[] = [];
    for (let round = 0; round < REPEATS; round += 1) samples.push(await once(browser, server.url, owner, round));
    const painted = samples.filter((ms) => Number.isFinite(ms));
    return [
      {
        name: `online again → ${MISSED} missed painted, p90`,
        unit: 'ms',
        measured: painted.length === samples.length ? percentile(painted, 90) : Number.POSITIVE_INFINITY,
        budget: BUDGET_P90_MS,
        note: `median ${median(painted).toFixed(0)} ms over ${painted.length} of ${samples.length} outages; from the browser's online event, reconnect included`,
      },
    ];
  } finally {
    await browser.close();
    await server.close();
  }
}
