// Online again → missed messages painted: Alice's panel is open on messaging:general, her network
// goes away (the browser offline, its socket closed by the bench, new ones refused until it is
// back), Bob sends 40 messages through the site owner's server SDK meanwhile, and the SDK's
// reconnect attempts fail at least twice. We time, in the page, from the browser's `online` event
// to the painted frame that shows the 40th. Ours on the demo page, the peer (stream-chat-react)
// on the prepared site, alternately, each on a backend of its own so both channels grow alike.
// A peer that never shows the 40th is a finding, not a failed bench: it counts at the cap.
import { StreamChat } from 'stream-chat';
import type { Browser, Page } from 'playwright-core';
import { controlNetwork } from '../e2e/network';
import { API_KEY, API_SECRET, startBenchServer } from './backend';
import { launchChromium } from './browser';
import { LAUNCHER, prepareSite } from './pages';
import { median, percentile, spread } from './stats';
import type { BenchRow } from './types';

/** Outages per side: one takes 6–7 s with its page, so the 20 and the peer's build stay near 2.5 minutes (a peer miss adds CAP_MS). */
const REPEATS = 10;
const MISSED = 40;
/** The words: everything missed shown within a second of the connection being healthy; reconnecting takes some of that. */
const BUDGET_P90_MS = 2000;
/** An outage whose 40th message is not shown by then is a miss. */
const CAP_MS = 30_000;

type Kind = 'ours' | 'peer';

/** The panel's launcher, the list it opens, and each message's text (one selector per shadow root, the last matching every text). */
const PANEL: Record<Kind, { launcher: string; list: string; text: string[] }> = {
  ours: { launcher: LAUNCHER.ours.join(' '), list: 'chat-widget [part~="message-list"]', text: ['chat-widget', '.message-text'] },
  peer: { launcher: LAUNCHER.peer.join(' '), list: '.str-chat__message-list', text: ['.str-chat__message-list .str-chat__message-text'] },
};

/** In the page: when `online` fires, and the frame after which a message with `text` is in the panel. */
const WATCH = `(text, path) => new Promise((resolve) => {
  let back = NaN;
  addEventListener('online', () => { back = performance.now(); }, { once: true });
  const root = path.slice(0, -1).reduce((scope, host) => scope.querySelector(host).shadowRoot, document);
  const look = () => {
    const shown = [...root.querySelectorAll(path.at(-1))].some((el) => el.textContent.includes(text));
    if (shown) requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - back)));
    else setTimeout(look, 5);
  };
  look();
})`;

type Outage = {
  /** From `online` to the 40th painted; NaN when it was not within CAP_MS. */
  ms: number;
  refused: number;
  /** How many of the missed the list held then: the peer's list is not windowed, so this counts what it shows (NaN for ours). */
  listed: number;
};

/** Of `texts`, how many the peer's message list shows. */
async function peerListed(page: Page, texts: string[]): Promise<number> {
  const shown = await page.locator(PANEL.peer.text.join(' ')).allTextContents();
  return texts.filter((text) => shown.some((content) => content.includes(text))).length;
}

async function once(browser: Browser, url: string, kind: Kind, owner: StreamChat, round: number): Promise<Outage> {
  const context = await browser.newContext({ viewport: { width: 1200, height: 860 } });
  const network = await controlNetwork(context);
  try {
    const page = await context.newPage();
    await page.goto(url);
    await page.locator(PANEL[kind].launcher).click();
    await page.locator(PANEL[kind].list).waitFor();
    await network.cut();
    const texts = Array.from({ length: MISSED }, (_, i) => `Missed ${i + 1} of ${MISSED}, ${kind} round ${round}, ${Date.now()}`);
    for (const text of texts) await owner.channel('messaging', 'general').sendMessage({ text, user_id: 'bob' });
    const deadline = Date.now() + 20_000;
    while (network.refused < 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    const refused = network.refused;
    const painted = page.evaluate(`(${WATCH})(${JSON.stringify(texts.at(-1))}, ${JSON.stringify(PANEL[kind].text)})`) as Promise<number>;
    await network.restore();
    const ms = await Promise.race([painted, new Promise<number>((resolve) => setTimeout(() => resolve(Number.NaN), CAP_MS))]);
    const listed = kind === 'peer' && Number.isFinite(ms) ? await peerListed(page, texts) : Number.NaN;
    return { ms, refused, listed };
  } finally {
    await context.close();
  }
}

export default async function reconnect(): Promise<BenchRow[]> {
  const site = await prepareSite(['general']);
  const [browser, server, peerServer] = await Promise.all([launchChromium(), startBenchServer(process.cwd()), startBenchServer(site.root)]);
  const owners: Record<Kind, StreamChat> = {
    ours: new StreamChat(API_KEY, API_SECRET, { baseURL: server.url }),
    peer: new StreamChat(API_KEY, API_SECRET, { baseURL: peerServer.url }),
  };
  const urls: Record<Kind, string> = { ours: `${server.url}/?user=alice`, peer: `${peerServer.url}${site.pages.peer('general')}` };
  try {
    const outages: Record<Kind, Outage[]> = { ours: [], peer: [] };
    for (let round = 0; round < REPEATS; round += 1) {
      const order: Kind[] = round % 2 ? ['peer', 'ours'] : ['ours', 'peer'];
      for (const kind of order) outages[kind].push(await once(browser, urls[kind], kind, owners[kind], round));
    }
    const painted = outages.ours.map((o) => o.ms).filter(Number.isFinite);
    // The peer has no budget to fail: a miss counts at the cap, so its p90 stays a number.
    const peer = outages.peer.map((o) => (Number.isFinite(o.ms) ? o.ms : CAP_MS));
    const peerMisses = outages.peer.filter((o) => !Number.isFinite(o.ms)).length;
    const fewestRefused = (kind: Kind) => Math.min(...outages[kind].map((o) => o.refused));
    const listed = outages.peer.map((o) => o.listed).filter(Number.isFinite);
    return [
      {
        name: `online again → ${MISSED} missed painted, p90`,
        unit: 'ms',
        measured: painted.length === REPEATS ? percentile(painted, 90) : Number.POSITIVE_INFINITY,
        budget: BUDGET_P90_MS,
        peer: percentile(peer, 90),
        note:
          `median ${median(painted).toFixed(0)} ms over ${painted.length} of ${REPEATS} outages, peer ${median(peer).toFixed(0)} ms ` +
          `(${peerMisses} of ${REPEATS} missed, counted as ${CAP_MS} ms); from the browser's online event, reconnect included; ` +
          `refused reconnects per outage at least ${fewestRefused('ours')} ours, ${fewestRefused('peer')} peer` +
          (listed.length ? `; the peer's list then held ${spread(listed)} of the ${MISSED} (its SDK recovers with one query of the latest page)` : ''),
      },
    ];
  } finally {
    await browser.close();
    await server.close();
    await peerServer.close();
  }
}
