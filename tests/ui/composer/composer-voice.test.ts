// The voice recorder against the test backend, with the browser's microphone and MediaRecorder
// stood in for (happy-dom has neither; Chromium's fake microphone is tests/e2e/voice.test.ts):
// what is recorded becomes a voiceRecording attachment through the SDK's attachment manager,
// and every way out (Stop, Discard, Escape, a lifted or slid finger, a hidden tab, a limit, a
// refusal) leaves the composer usable.
import { fireEvent, waitFor } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Attachment } from 'stream-chat';
import type { ChatWidgetElement } from '../../../src/entries/chat-widget';
import { part } from '../../element/helpers';
import { otherUser } from '../backend';
import { useBackendProcess } from '../backend-process';
import { all, clientOf, find, notificationTexts, one, openWidget, type, useBrowserUploads } from './composer-helpers';

const backend = useBackendProcess();
// An app that takes files up to 3,000 bytes: a recording stops before it is too large.
const small = useBackendProcess({ fileUploadConfig: { size_limit: 3000 } });
useBrowserUploads();

/** Bytes the stand-in recorder hands over per chunk. */
const CHUNK_BYTES = 400;

/** MediaRecorder as Chromium's behaves: chunks every `timeslice`, a last one and `stop` when stopped. */
class FakeMediaRecorder extends EventTarget {
  static isTypeSupported = (type: string) => type === 'audio/webm;codecs=opus';
  /** The one recording now, for a test to stop as the browser would. */
  static last: FakeMediaRecorder | undefined;
  state: RecordingState = 'inactive';
  private timer: ReturnType<typeof setInterval> | undefined;
  constructor(
    readonly stream: MediaStream,
    readonly options?: MediaRecorderOptions,
  ) {
    super();
  }
  private chunk() {
    const event = new Event('dataavailable') as Event & { data: Blob };
    event.data = new Blob([new Uint8Array(CHUNK_BYTES)], { type: 'audio/webm;codecs=opus' });
    this.dispatchEvent(event);
  }
  start(timeslice = 1000) {
    FakeMediaRecorder.last = this;
    this.state = 'recording';
    // Faster than real time: a test does not wait seconds for its chunks.
    this.timer = setInterval(() => this.chunk(), Math.min(timeslice, 100));
  }
  stop() {
    if (this.state === 'inactive') return;
    this.state = 'inactive';
    clearInterval(this.timer);
    setTimeout(() => {
      this.chunk();
      this.dispatchEvent(new Event('stop'));
    });
  }
}

class FakeAudioContext {
  createAnalyser() {
    return {
      fftSize: 1024,
      // A tone that grows louder each reading: the waveform has a shape to check.
      getFloatTimeDomainData(samples: Float32Array) {
        loudness = Math.min(0.3, loudness + 0.01);
        samples.forEach((_, index) => (samples[index] = Math.sin(index / 4) * loudness));
      },
    };
  }
  createMediaStreamSource() {
    return { connect: () => undefined };
  }
  close = () => Promise.resolve();
}

let loudness = 0;
let tracksStopped = 0;
const microphone = vi.fn();

beforeEach(() => {
  loudness = 0;
  tracksStopped = 0;
  microphone.mockReset();
  microphone.mockResolvedValue({ getTracks: () => [{ stop: () => (tracksStopped += 1) }] });
  vi.stubGlobal('MediaRecorder', FakeMediaRecorder);
  vi.stubGlobal('AudioContext', FakeAudioContext);
  Object.defineProperty(navigator, 'mediaDevices', { value: { getUserMedia: microphone }, configurable: true });
  Object.defineProperty(window, 'isSecureContext', { value: true, configurable: true });
});

afterEach(() => {
  vi.unstubAllGlobals();
});

const previews = (el: Element) => Array.from(el.shadowRoot?.querySelectorAll('[part~="attachment-preview"]') ?? []);
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function startRecording(el: ChatWidgetElement) {
  fireEvent.click(part(el, 'record-button') as HTMLElement);
  await find(el, '[part~="recorder"] .recorder-dot.on');
}

describe('recording a voice message', () => {
  it('offers the microphone where there is nothing to send and the browser can record', async () => {
    const { el, textarea } = await openWidget(backend.server.url, 'alice');
    expect(part(el, 'record-button')?.getAttribute('aria-label')).toBe('Record a voice message');
    expect(part(el, 'send-button')).toBeNull();
    type(textarea, 'Some words');
    await waitFor(() => expect(part(el, 'send-button')).not.toBeNull());
    expect(part(el, 'record-button')).toBeNull();

    // A browser without MediaRecorder gets the send button only.
    vi.stubGlobal('MediaRecorder', undefined);
    const other = await openWidget(backend.server.url, 'bob');
    expect(part(other.el, 'record-button')).toBeNull();
    expect(part(other.el, 'send-button')).not.toBeNull();
  });

  it('records, stops, and sends a voiceRecording attachment with its duration and waveform', async () => {
    const { el } = await openWidget(backend.server.url, 'alice');
    const bob = await otherUser(backend.server.url, 'bob');
    const arrived = new Promise<{ attachments?: Attachment[] }>((resolve) => bob.on('message.new', (event) => resolve(event.message!)));
    await bob.channel('messaging', 'general').watch();
    await startRecording(el);
    expect(one(el, '[part~="recorder"] [role="status"]')?.textContent).toContain('Recording');
    expect(el.shadowRoot?.activeElement).toBe(part(el, 'recorder-stop'));
    await pause(450);
    fireEvent.click(part(el, 'recorder-stop') as HTMLElement);

    await waitFor(() => expect(previews(el).map((p) => p.getAttribute('data-state'))).toEqual(['finished']), { timeout: 5000 });
    expect(one(el, '[part~="recorder"]')).toBeNull();
    expect(tracksStopped).toBe(1); // the microphone is released
    expect(previews(el)[0]?.querySelector('[part~="voice-attachment"]')).not.toBeNull();
    expect(notificationTexts(el)).toEqual([expect.stringMatching(/^Voice message 0:0[01] ready to send$/)]);

    fireEvent.click(await find(el, '[part~="send-button"]:not([disabled])'));
    // As another member's client receives it.
    const attachment = (await arrived).attachments![0]!;
    expect(attachment).toMatchObject({ type: 'voiceRecording', mime_type: 'audio/webm' });
    expect(attachment.title).toMatch(/^voice-message-.*\.webm$/);
    expect(attachment.asset_url).toMatch(new RegExp(`^${backend.server.url}/uploads/`));
    expect(attachment.file_size).toBeGreaterThanOrEqual(CHUNK_BYTES * 2);
    expect(attachment.duration).toBeGreaterThanOrEqual(0.3);
    expect(attachment.duration).toBeLessThan(2);
    const waveform = attachment.waveform_data!;
    expect(waveform).toHaveLength(100);
    // Growing louder: from quiet to the loudest, scaled to 1.
    expect(waveform[0]).toBeLessThan(waveform[99]!);
    expect(waveform[99]).toBe(1);
    await bob.disconnectUser();
  });

  it('discards with the bin button or Escape: nothing is attached and the microphone is released', async () => {
    const { el } = await openWidget(backend.server.url, 'alice');
    await startRecording(el);
    fireEvent.click(one(el, '[part~="recorder"] .recorder-discard') as HTMLElement);
    await waitFor(() => expect(one(el, '[part~="recorder"]')).toBeNull());
    expect(notificationTexts(el)).toContain('Recording discarded');

    await startRecording(el);
    fireEvent.keyDown(part(el, 'recorder-stop') as HTMLElement, { key: 'Escape' });
    await waitFor(() => expect(one(el, '[part~="recorder"]')).toBeNull());
    await pause(100);
    expect(previews(el)).toEqual([]);
    expect(tracksStopped).toBe(2);
    expect(el.shadowRoot?.activeElement).toBe(part(el, 'composer-input'));
  });

  it('says why the microphone could not be used, and offers it again', async () => {
    const { el } = await openWidget(backend.server.url, 'alice');
    const refuse = async (name: string) => {
      microphone.mockRejectedValueOnce(Object.assign(new Error(name), { name }));
      fireEvent.click(part(el, 'record-button') as HTMLElement);
      await waitFor(() => expect(notificationTexts(el)).toHaveLength(1));
      expect(one(el, '[part~="recorder"]')).toBeNull();
      expect(part(el, 'record-button')).not.toBeNull();
      const said = notificationTexts(el)[0];
      all(el, '[part~="notification"] button').forEach((button) => fireEvent.click(button));
      return said;
    };
    expect(await refuse('NotAllowedError')).toBe('Microphone access was refused: allow it in the browser to record');
    expect(await refuse('NotFoundError')).toBe('No microphone was found');
    expect(await refuse('NotReadableError')).toBe('The microphone is in use by another app');
    expect(await refuse('TypeError')).toBe('The recording could not start');
  });

  it('records while a finger holds the button: lifting keeps it, sliding away discards it, a tap records until Stop', async () => {
    const { el } = await openWidget(backend.server.url, 'alice');
    const press = (x = 300, y = 500) => fireEvent.pointerDown(part(el, 'record-button') as HTMLElement, { pointerType: 'touch', pointerId: 7, clientX: x, clientY: y });
    const lift = () => window.dispatchEvent(Object.assign(new Event('pointerup'), { pointerId: 7 }));
    const slide = (x: number, y: number) => window.dispatchEvent(Object.assign(new Event('pointermove'), { pointerId: 7, clientX: x, clientY: y }));

    press();
    await find(el, '[part~="recorder"] .recorder-dot.on');
    expect(one(el, '.recorder-slide')?.textContent).toBe('Slide away to cancel');
    slide(290, 470); // a little: still recording
    await pause(450);
    expect(one(el, '[part~="recorder"]')).not.toBeNull();
    lift();
    await waitFor(() => expect(previews(el)).toHaveLength(1), { timeout: 5000 });
    expect(one(el, '[part~="recorder"]')).toBeNull();

    fireEvent.click(one(el, '[part~="attachment-preview"] [aria-label^="Remove"]') as HTMLElement);
    press();
    await find(el, '[part~="recorder"] .recorder-dot.on');
    slide(180, 500); // 120 px away
    await waitFor(() => expect(one(el, '[part~="recorder"]')).toBeNull());
    expect(notificationTexts(el)).toContain('Recording discarded');
    expect(previews(el)).toEqual([]);

    // A quick tap: the finger lifts at once, and recording goes on with Discard and Stop.
    press();
    lift();
    await find(el, '[part~="recorder"] .recorder-dot.on');
    await pause(100);
    expect(one(el, '.recorder-slide')).toBeNull();
    expect(one(el, '.recorder-discard')).not.toBeNull();
    fireEvent.click(part(el, 'recorder-stop') as HTMLElement);
    await waitFor(() => expect(previews(el)).toHaveLength(1), { timeout: 5000 });
  });

  it('stops and keeps the recording when the tab is hidden or the panel closes', async () => {
    const { el } = await openWidget(backend.server.url, 'alice');
    await startRecording(el);
    await pause(200);
    Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
    document.dispatchEvent(new Event('visibilitychange'));
    Object.defineProperty(document, 'visibilityState', { value: 'visible', configurable: true });
    await waitFor(() => expect(previews(el)).toHaveLength(1), { timeout: 5000 });

    fireEvent.click(one(el, '[part~="attachment-preview"] [aria-label^="Remove"]') as HTMLElement);
    await startRecording(el);
    await pause(200);
    el.removeAttribute('open');
    el.setAttribute('open', '');
    await waitFor(() => expect(previews(el)).toHaveLength(1), { timeout: 5000 });
    expect(tracksStopped).toBe(2);
  });

  it('keeps what was recorded when the browser stops the recording (the microphone unplugged)', async () => {
    const { el } = await openWidget(backend.server.url, 'alice');
    await startRecording(el);
    await pause(300);
    FakeMediaRecorder.last!.stop(); // as when its track ends
    await waitFor(() => expect(one(el, '[part~="recorder"]')).toBeNull(), { timeout: 5000 });
    await waitFor(() => expect(previews(el).map((p) => p.getAttribute('data-state'))).toEqual(['finished']), { timeout: 5000 });
    expect(tracksStopped).toBe(1);
    expect(notificationTexts(el)).toEqual([expect.stringMatching(/^Voice message 0:0[01] ready to send$/)]);
  });

  it("stops at the app's upload limit and says so; the recording is kept", async () => {
    const { el } = await openWidget(small.server.url, 'alice');
    await startRecording(el);
    await waitFor(() => expect(one(el, '[part~="recorder"]')).toBeNull(), { timeout: 5000 });
    await waitFor(() => expect(previews(el).map((p) => p.getAttribute('data-state'))).toEqual(['finished']), { timeout: 5000 });
    expect(notificationTexts(el)).toContain('Recording stopped at the upload limit of 2.9 kB');
  });

  it('refuses before recording when a message has no room for another attachment', async () => {
    const { el } = await openWidget(backend.server.url, 'alice');
    const manager = clientOf(el).activeChannels['messaging:general']!.messageComposer.attachmentManager;
    vi.spyOn(manager, 'availableUploadSlots', 'get').mockReturnValue(0);
    fireEvent.click(part(el, 'record-button') as HTMLElement);
    await waitFor(() => expect(notificationTexts(el)).toEqual(['A message can carry at most 10 attachments: 1 file was not added']));
    expect(microphone).not.toHaveBeenCalled();
    expect(one(el, '[part~="recorder"]')).toBeNull();
  });
});
