// Cached open: a returning visitor (this browser opened the chat before) clicks the bubble while
// the chat API answers 2 s late (the token endpoint and every channel call held back). We time, in
// the page, from the click to the painted frame that shows a message: ours paints what the
// browser kept, then updates. The peer (stream-chat-react, on the prepared site and a backend of
// its own) has no cache and shows nothing before the API answers: its token fetch and its channel
// query are each held back, so its figure is over 2,000 ms by construction; we run it to say by how much.
import type { Browser } from 'playwright-core';
import { startBenchServer } from './backend';
import { launchChromium } from './browser';
import { LAUNCHER, prepareSite } from './pages';
import { median, percentile } from './stats';
import type { BenchRow } from './types';

const REPEATS = 8;
const LATE_MS = 2000;
const BUDGET_P90_MS = 500;
/** A visitor shown no message by then is a miss (ours fails its budget; the peer counts at the cap). */
const CAP_MS = 15_000;

type Kind = 'ours' | 'peer';

/** The launcher and a message's text, one selector per shadow root (as pages.ts names elements). */
const ELEMENTS: Record<Kind, { launcher: string[]; message: string[] }> = {
  ours: { launcher: LAUNCHER.ours, message: ['chat-widget', '.message-text'] },
  peer: { launcher: LAUNCHER.peer, message: ['.str-chat__message-text'] },
};

/** In the page: clicks the launcher, and resolves with the ms until a frame after which a message is shown. */
const CLICK_AND_WATCH = `(launcher, message) => new Promise((resolve) => {
  const find = (path) => path.slice(1).reduce((found, selector) => found && (found.shadowRoot ?? found).querySelector(selector), document.querySelector(path[0]));
  const started = performance.now();
  find(launcher).click();
  const look = () => {
    if (find(message)) requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - started)));
    else setTimeout(look, 5);
  };
  look();
})`;

async function once(browser: Browser, url: string, kind: Kind): Promise<number> {
  const { launcher, message } = ELEMENTS[kind];
  const context = await browser.newContext({ viewport: { width: 1200, height: 860 } });
  try {
    const first = await context.newPage();
    await first.goto(url);
    await first.locator(launcher.join(' ')).click();
    await first.locator(message.join(' ')).first().waitFor();
    await first.waitForTimeout(1500); // the channel is kept a moment after it shows
    await first.close();

    const page = await context.newPage();
    await page.route(/\/(demo\/token|channels)/, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, LATE_MS));
      await route.continue().catch(() => undefined);
    });
    await page.goto(url, { waitUntil: 'load' });
    const painted = page.evaluate(`(${CLICK_AND_WATCH})(${JSON.stringify(launcher)}, ${JSON.stringify(message)})`) as Promise<number>;
    return await Promise.race([painted, new Promise<number>((resolve) => setTimeout(() => resolve(Number.NaN), CAP_MS))]);
  } finally {
    await context.close();
  }
}

export default async function cachedOpen(): Promise<BenchRow[]> {
  const site = await prepareSite(['general']);
  const [browser, server, peerServer] = await Promise.all([launchChromium(), startBenchServer(process.cwd()), startBenchServer(site.root)]);
  const urls: Record<Kind, string> = { ours: `${server.url}/?user=alice`, peer: `${peerServer.url}${site.pages.peer('general')}` };
  try {
    const samples: Record<Kind, number[]> = { ours: [], peer: [] };
    for (let round = 0; round < REPEATS; round += 1) {
      const order: Kind[] = round % 2 ? ['peer', 'ours'] : ['ours', 'peer'];
      for (const kind of order) samples[kind].push(await once(browser, urls[kind], kind));
    }
    const ours = samples.ours.filter(Number.isFinite);
    const peer = samples.peer.map((ms) => (Number.isFinite(ms) ? ms : CAP_MS));
    const peerMisses = samples.peer.filter((ms) => !Number.isFinite(ms)).length;
    return [
      {
        name: `cached open, API ${LATE_MS} ms late → first message painted, p90`,
        unit: 'ms',
        measured: ours.length === REPEATS ? percentile(ours, 90) : Number.POSITIVE_INFINITY,
        budget: BUDGET_P90_MS,
        peer: percentile(peer, 90),
        note:
          `median ${median(ours).toFixed(0)} ms over ${ours.length} of ${REPEATS} returning visitors, peer ${median(peer).toFixed(0)} ms` +
          (peerMisses ? ` (${peerMisses} missed, counted as ${CAP_MS} ms)` : '') +
          `; the peer has no cache: its token fetch and channel query are each ${LATE_MS} ms late`,
      },
    ];
  } finally {
    await browser.close();
    await server.close();
    await peerServer.close();
  }
}
