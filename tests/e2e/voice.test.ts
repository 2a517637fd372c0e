// Voice messages in Chromium with its fake microphone (a steady beep): a visitor records about
// two seconds, sends, and another visitor's panel plays it with its duration and waveform; a
// refused microphone and an app that refuses the recording's type are both said, and the
// composer stays usable. The recorder is fetched beside the script on first use.
import { chromium, type Browser, type Page } from 'playwright-core';
import { StreamChat } from 'stream-chat';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server/index';
import { audit, collectErrors, eventually, recordViolations, screenshot, seriousFindings, startDemoServer, visit, type Visitor } from './browser';

const API_KEY = 'e2e-voice-key';
const API_SECRET = 'e2e-voice-secret-long-enough-for-hs256';

let browser: Browser;
let server: RunningServer;
let owner: StreamChat;

/** Chromium with a fake microphone, allowed without asking unless `ask` (then the site's permission decides). */
const withMicrophone = (ask = false) =>
  chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run', '--use-fake-device-for-media-stream', ...(ask ? [] : ['--use-fake-ui-for-media-stream'])],
  });

beforeAll(async () => {
  [browser, server] = await Promise.all([withMicrophone(), startDemoServer(API_KEY, API_SECRET)]);
  owner = new StreamChat(API_KEY, API_SECRET, { baseURL: server.url });
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const inWidget = (page: Page, part: string) => page.locator(`chat-widget [part~="${part}"]`);

async function openChat(on: Browser, user: string, viewport = { width: 1100, height: 800 }): Promise<Visitor> {
  const visitor = await visit(on, `${server.url}/?user=${user}`, { viewport });
  await inWidget(visitor.page, 'launcher').click();
  await inWidget(visitor.page, 'message-list').waitFor();
  return visitor;
}

const notifications = (page: Page) => inWidget(page, 'notification').allTextContents();

describe('voice messages in Chromium', () => {
  it('records about two seconds, sends them, and another visitor plays them with their duration and waveform', async () => {
    const alice = await openChat(browser, 'alice');
    const bob = await openChat(browser, 'bob');
    try {
      const scripts: string[] = [];
      alice.page.on('request', (request) => request.resourceType() === 'script' && scripts.push(new URL(request.url()).pathname));

      await inWidget(alice.page, 'record-button').click();
      await inWidget(alice.page, 'recorder').waitFor();
      expect(scripts).toContain('/dist/chat-widget.recorder.js');
      await alice.page.locator('chat-widget .recorder-dot.on').waitFor();
      await screenshot(alice.page, 'voice-recording');
      expect(seriousFindings(await audit(alice.page))).toEqual([]);
      await alice.page.waitForTimeout(2000);
      await inWidget(alice.page, 'recorder-stop').click();

      // The recording waits in the composer, uploaded, with its own player: then Send.
      const preview = alice.page.locator('chat-widget [part~="attachment-preview"]');
      await eventually(() => preview.getAttribute('data-state')).toBe('finished');
      await expect(preview.locator('[part~="voice-attachment"]').count()).resolves.toBe(1);
      await screenshot(alice.page, 'voice-ready');
      expect(seriousFindings(await audit(alice.page))).toEqual([]);
      await inWidget(alice.page, 'send-button').click();

      // What was sent is the provider's voiceRecording attachment.
      const sent = alice.page.locator('chat-widget [part~="own-message"] [part~="voice-attachment"]');
      await sent.waitFor();
      const channel = owner.channel('messaging', 'general');
      const { messages } = await channel.query({ messages: { limit: 5 } });
      const attachment = messages.at(-1)?.attachments?.[0];
      expect(attachment).toMatchObject({ type: 'voiceRecording', mime_type: 'audio/webm' });
      expect(attachment?.asset_url).toMatch(/^http/);
      expect(attachment?.duration).toBeGreaterThan(1.5);
      expect(attachment?.duration).toBeLessThan(3.5);
      expect(attachment?.file_size).toBeGreaterThan(1000);
      expect(attachment?.waveform_data).toHaveLength(100);
      expect(Math.max(...(attachment?.waveform_data ?? []))).toBe(1);

      // Bob's panel plays it: its slider knows the duration, and time moves while it plays.
      const player = bob.page.locator('chat-widget [part~="message"] [part~="voice-attachment"]').last();
      await player.waitFor();
      const slider = player.locator('[role="slider"]');
      const seconds = Number(await slider.getAttribute('aria-valuemax'));
      expect(seconds).toBeGreaterThanOrEqual(2);
      expect(seconds).toBeLessThanOrEqual(3);
      await player.locator('button').first().click();
      await eventually(() => slider.getAttribute('aria-valuenow').then(Number)).toBeGreaterThan(0);
      await screenshot(bob.page, 'voice-playing');
      await bob.page.emulateMedia({ colorScheme: 'dark' });
      expect(seriousFindings(await audit(bob.page))).toEqual([]);
      await screenshot(bob.page, 'voice-playing-dark');
      expect(alice.errors).toEqual([]);
      expect(bob.errors).toEqual([]);
    } finally {
      await alice.context.close();
      await bob.context.close();
    }
  });

  it('records, listens back and sends on a page with a strict CSP, whose poll form loads too', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 800 }, isMobile: true, hasTouch: true });
    const page = await context.newPage();
    const errors = collectErrors(page);
    const violations = await recordViolations(page);
    try {
      await page.goto(`${server.url}/strict-csp.html?user=bob`);
      await inWidget(page, 'launcher').click();
      await inWidget(page, 'message-list').waitFor();
      await inWidget(page, 'record-button').tap();
      await inWidget(page, 'recorder').waitFor();
      await page.waitForTimeout(1200);
      await screenshot(page, 'voice-recording-phone');
      await inWidget(page, 'recorder-stop').tap();
      const preview = page.locator('chat-widget [part~="attachment-preview"]');
      await eventually(() => preview.getAttribute('data-state')).toBe('finished');
      // Listening back plays the uploaded copy (media-src 'self').
      const slider = preview.locator('[role="slider"]');
      await preview.locator('[part~="voice-attachment"] button').first().tap();
      await eventually(() => slider.getAttribute('aria-valuenow').then(Number)).toBeGreaterThan(0);
      await screenshot(page, 'voice-ready-phone');
      await inWidget(page, 'send-button').tap();
      await page.locator('chat-widget [part~="own-message"] [part~="voice-attachment"]').waitFor();

      await inWidget(page, 'composer-menu-button').tap();
      await page.locator('chat-widget [part~="composer-menu"] button', { hasText: 'Poll' }).tap();
      await inWidget(page, 'poll-form').waitFor();
      expect(violations).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('says so when the app refuses the recording type, before anything is recorded', async () => {
    await owner.updateAppSettings({ file_upload_config: { blocked_mime_types: ['audio/webm'] } });
    const carol = await openChat(browser, 'carol');
    try {
      await inWidget(carol.page, 'record-button').click();
      await eventually(() => notifications(carol.page)).toEqual(['Voice messages are not accepted here: this type of file is not allowed']);
      await expect(inWidget(carol.page, 'recorder').count()).resolves.toBe(0);
      await expect(inWidget(carol.page, 'composer-input').isEditable()).resolves.toBe(true);
    } finally {
      await carol.context.close();
      await owner.updateAppSettings({ file_upload_config: { blocked_mime_types: [] } });
    }
  });

  it('says so when the microphone is refused, and the composer stays usable', async () => {
    // No fake UI, and the site's microphone permission set to "block", as a visitor would.
    const refusing = await withMicrophone(true);
    try {
      const dave = await openChat(refusing, 'dave');
      const page = await dave.context.newCDPSession(dave.page);
      const { targetInfo } = await page.send('Target.getTargetInfo');
      const cdp = await refusing.newBrowserCDPSession();
      await cdp.send('Browser.setPermission', { permission: { name: 'microphone' }, setting: 'denied', origin: server.url, browserContextId: targetInfo.browserContextId });
      await inWidget(dave.page, 'record-button').click();
      await eventually(() => notifications(dave.page)).toEqual(['Microphone access was refused: allow it in the browser to record']);
      await expect(inWidget(dave.page, 'recorder').count()).resolves.toBe(0);
      await inWidget(dave.page, 'composer-input').fill('Typing still works');
      await inWidget(dave.page, 'send-button').click();
      await inWidget(dave.page, 'own-message').filter({ hasText: 'Typing still works' }).waitFor();
      await screenshot(dave.page, 'voice-refused');
    } finally {
      await refusing.close();
    }
  });
});
