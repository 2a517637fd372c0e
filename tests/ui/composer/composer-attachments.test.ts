import { fireEvent, waitFor } from '@testing-library/preact';
import { StreamChat } from 'stream-chat';
import { describe, expect, it, vi } from 'vitest';
import { part, record } from '../../element/helpers';
import { otherUser } from '../backend';
import { useBackendProcess } from '../backend-process';
import { all, find, notificationTexts, one, openWidget, pickFiles, textFile, transferEvent, type, useBrowserUploads } from './composer-helpers';
import { pngBytes } from '../png';

const backend = useBackendProcess();
// An app that refuses files over 1000 bytes, .exe files and one mime type.
const strict = useBackendProcess({
  fileUploadConfig: { size_limit: 1000, blocked_file_extensions: ['.exe'], blocked_mime_types: ['application/x-evil'] },
});
useBrowserUploads();

const image = (name: string, width: number, height: number) => new File([pngBytes(width, height)], name, { type: 'image/png' });
const previewStates = (el: Element) => Array.from(el.shadowRoot?.querySelectorAll('[part~="attachment-preview"]') ?? []).map((p) => p.getAttribute('data-state'));

describe('composer attachments', () => {
  it('uploads a picked image and sends it; the message reserves the image size before it loads', async () => {
    const { el, textarea } = await openWidget(backend.server.url, 'alice');
    const bob = await otherUser(backend.server.url, 'bob');
    const arrived = new Promise<unknown>((resolve) => bob.on('message.new', (event) => resolve(event.message)));
    await bob.channel('messaging', 'general').watch();

    pickFiles(el, [image('dunes.png', 600, 300)]);
    await waitFor(() => expect(previewStates(el)).toEqual(['finished']), { timeout: 5000 });
    expect(one(el, '[part~="attachment-preview"] .attachment-name')?.textContent).toBe('dunes.png');
    const sent = record(el, 'chat-widget-message-sent');
    type(textarea, 'The dunes');
    fireEvent.keyDown(textarea, { key: 'Enter' });
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(previewStates(el)).toEqual([]);

    const img = (await find(el, '[part~="own-message"] [part~="image-attachment"]')) as HTMLImageElement;
    // 600×300 fits the 240 px box as 240×120: set before the image has loaded.
    expect([img.getAttribute('width'), img.getAttribute('height')]).toEqual(['240', '120']);
    expect(img.getAttribute('src')).toMatch(new RegExp(`^${backend.server.url}/uploads/`));
    expect(img.getAttribute('alt')).toBe('dunes.png');
    const message = (await arrived) as { attachments: Array<{ image_url: string; original_width: number; original_height: number }> };
    expect(message.attachments[0]).toMatchObject({ original_width: 600, original_height: 300, image_url: img.getAttribute('src') });
    await bob.disconnectUser();
  });

  it('takes files dropped onto the panel and pasted from the clipboard', async () => {
    const { el, textarea } = await openWidget(backend.server.url, 'alice');
    const body = one(el, '.panel-body') as HTMLElement;
    const dropped = textFile('notes.txt', 20);
    transferEvent(body, 'dragenter', [dropped]);
    await find(el, '[part~="drop-overlay"]');
    expect(transferEvent(body, 'dragover', [dropped]).defaultPrevented).toBe(true);
    transferEvent(body, 'drop', [dropped]);
    await waitFor(() => expect(one(el, '[part~="drop-overlay"]')).toBeNull());
    await waitFor(() => expect(previewStates(el)).toEqual(['finished']), { timeout: 5000 });

    transferEvent(textarea, 'paste', [image('screenshot.png', 20, 10)]);
    await waitFor(() => expect(previewStates(el)).toEqual(['finished', 'finished']), { timeout: 5000 });
    expect(all(el, '.attachment-name').map((n) => n.textContent)).toEqual(['notes.txt', 'screenshot.png']);

    // Files alone make a message; the file arrives with its name, size and a download link.
    fireEvent.click(part(el, 'send-button') as HTMLElement);
    const file = await find(el, '[part~="own-message"] [part~="file-attachment"]');
    expect(file.textContent).toContain('notes.txt');
    expect(file.textContent).toContain('20 bytes');
    expect(file.getAttribute('href')).toMatch(/\/uploads\/.+\/notes\.txt$/);
    expect(file.hasAttribute('download')).toBe(true);
  });

  it('adds at most 10 attachments and says what was left out; each can be removed', async () => {
    const { el } = await openWidget(backend.server.url, 'alice');
    pickFiles(el, Array.from({ length: 11 }, (_, i) => textFile(`file-${i + 1}.txt`, 10)));
    await waitFor(() => expect(previewStates(el)).toEqual(Array(10).fill('finished')), { timeout: 8000 });
    expect(notificationTexts(el)).toContain('A message can carry at most 10 attachments: 1 file was not added');
    expect(all(el, '.attachment-name').map((n) => n.textContent)).not.toContain('file-11.txt');

    // Full: one more is refused the same way.
    pickFiles(el, [textFile('one-more.txt', 10)]);
    await waitFor(() => expect(notificationTexts(el)).toContain('A message can carry at most 10 attachments: 1 file was not added'));
    fireEvent.click(one(el, '[aria-label="Remove file-1.txt"]') as HTMLElement);
    await waitFor(() => expect(previewStates(el)).toHaveLength(9));
  });

  it('refuses to send while an upload runs, with the SDK warning', async () => {
    const { el, textarea } = await openWidget(backend.server.url, 'alice');
    // A slow network: the upload never finishes while the test looks.
    vi.mocked(StreamChat.prototype.sendFile).mockImplementationOnce(() => new Promise(() => undefined));
    {
      pickFiles(el, [textFile('big-report.txt', 50)]);
      await waitFor(() => expect(previewStates(el)).toEqual(['uploading']));
      expect(one(el, '[part~="attachment-preview"] .attachment-status')?.textContent).toMatch(/^Uploading/);
      const sent = record(el, 'chat-widget-message-sent');
      type(textarea, 'Report attached');
      await waitFor(() => expect((part(el, 'send-button') as HTMLButtonElement).disabled).toBe(false));
      fireEvent.keyDown(textarea, { key: 'Enter' });
      await waitFor(() => expect(notificationTexts(el)).toContain('Wait until all attachments have uploaded'));
      expect(textarea.value).toBe('Report attached');
      expect(sent).toEqual([]);
      // Removing it cancels the upload; the text can then go.
      fireEvent.click(one(el, '[aria-label="Remove big-report.txt"]') as HTMLElement);
      await waitFor(() => expect(previewStates(el)).toEqual([]));
    }
  });

  it('blocks files the app does not accept, with the reason, and shows uploads the backend refuses as failed with retry', async () => {
    const { el } = await openWidget(strict.server.url, 'alice');
    pickFiles(el, [
      textFile('too-big.txt', 2000),
      textFile('setup.exe', 10, 'application/octet-stream'),
      textFile('data.bin', 10, 'application/x-evil'),
      textFile('empty.txt', 0),
    ]);
    // Each file's state and what it says, by name (they settle in any order).
    const rows = () =>
      Object.fromEntries(
        all(el, '[part~="attachment-preview"]').map((row) => [
          row.querySelector('.attachment-name')?.textContent,
          `${row.getAttribute('data-state')}: ${row.querySelector('.attachment-status')?.textContent}`,
        ]),
      );
    await waitFor(
      () =>
        expect(rows()).toEqual({
          'too-big.txt': 'blocked: Not uploaded: the file is too large',
          'setup.exe': 'blocked: Not uploaded: this type of file is not allowed',
          'data.bin': 'blocked: Not uploaded: this type of file is not allowed',
          'empty.txt': 'failed: Upload failed',
        }),
      { timeout: 5000 },
    );
    await waitFor(() => {
      const texts = notificationTexts(el);
      expect(texts).toContain('The attachment upload was blocked: the file is too large.');
      expect(texts).toContain('Error uploading attachment: upload refused: empty.txt is empty.');
    });
    // Nothing sendable: blocked and failed files are not content.
    expect((part(el, 'send-button') as HTMLButtonElement).disabled).toBe(true);

    // Retry asks the backend again (still refused: the file is still empty).
    const failedRow = all(el, '[part~="attachment-preview"]').find((row) => row.textContent?.includes('empty.txt')) as HTMLElement;
    fireEvent.click(Array.from(failedRow.querySelectorAll('button')).find((b) => b.textContent === 'Retry') as HTMLElement);
    await waitFor(() => expect(notificationTexts(el).filter((t) => t.includes('empty.txt is empty'))).toHaveLength(2), { timeout: 5000 });
    expect(rows()['empty.txt']).toBe('failed: Upload failed');
    for (const name of ['too-big.txt', 'setup.exe', 'data.bin', 'empty.txt']) fireEvent.click(one(el, `[aria-label="Remove ${name}"]`) as HTMLElement);
    await waitFor(() => expect(previewStates(el)).toEqual([]));
  });

  it('renders images, video, audio, voice recordings and files others send', async () => {
    const bob = await otherUser(backend.server.url, 'bob');
    const channel = bob.channel('messaging', 'general');
    await channel.watch();
    const base = `${backend.server.url}/uploads/x`;
    await channel.sendMessage({
      text: 'All kinds',
      attachments: [
        { type: 'image', image_url: `${base}/tall.png`, original_width: 300, original_height: 900, fallback: 'tall.png' },
        { type: 'video', asset_url: `${base}/clip.mp4`, mime_type: 'video/mp4', original_width: 1280, original_height: 720 },
        { type: 'audio', asset_url: `${base}/song.mp3`, title: 'song.mp3', mime_type: 'audio/mpeg' },
        { type: 'voiceRecording', asset_url: `${base}/voice.ogg`, duration: 12.4, mime_type: 'audio/ogg' },
        { type: 'file', asset_url: `${base}/plan.pdf`, title: 'plan.pdf', file_size: 1536000, mime_type: 'application/pdf' },
        { type: 'file', asset_url: 'javascript:alert(1)', title: 'evil.txt' },
      ],
    });
    const { el } = await openWidget(backend.server.url, 'alice');
    const img = (await find(el, '[part~="image-attachment"][alt="tall.png"]')) as HTMLImageElement;
    const message = img.closest('[part~="message"]') as HTMLElement;
    const within = (selector: string) => message.querySelector(selector);
    expect([img.getAttribute('width'), img.getAttribute('height')]).toEqual(['80', '240']);
    const video = within('[part~="video-attachment"]') as HTMLVideoElement;
    expect([video.getAttribute('src'), video.getAttribute('width'), video.getAttribute('height')]).toEqual([`${base}/clip.mp4`, '240', '135']);
    expect(within('[part~="audio-attachment"]')?.textContent).toBe('song.mp3');
    expect(within('[part~="audio-attachment"] audio')?.getAttribute('src')).toBe(`${base}/song.mp3`);
    expect(within('[part~="voice-attachment"] [role="slider"]')?.getAttribute('aria-label')).toBe('Voice message 0:12');
    // The javascript: link is not rendered at all.
    const files = Array.from(message.querySelectorAll('[part~="file-attachment"]'));
    expect(files.map((f) => f.textContent)).toEqual(['plan.pdf1.5 MB · Download']);
    expect(files[0]?.getAttribute('href')).toBe(`${base}/plan.pdf`);
    await bob.disconnectUser();
  });
});
