// Voice messages as the widget sends them: the recording uploaded with `channel.sendFile` (audio/webm
// from Chromium, audio/mp4 from Safari) and served back for an <audio> element, which reads it by
// byte range; the message carrying the provider's `voiceRecording` attachment, every field kept as
// sent wherever the message comes back; the app's upload settings; and input no recorder sends.
import { Readable } from 'node:stream';
import type { Attachment } from 'stream-chat';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUsers, failure, nextEvent, startHarness, type Harness } from '../../helpers';
import { watchingPair, type Pair } from '../../scenes';

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness();
  await createUsers(harness, 'alice', 'bob');
});

afterAll(async () => {
  await harness?.close();
});

/** A few KB that start like the container they claim to be (nothing here decodes them). */
function audioBytes(kind: 'webm' | 'mp4', size: number): Buffer {
  const head = kind === 'webm' ? Buffer.from('1a45dfa3', 'hex') : Buffer.from('0000001c667479704d344120', 'hex');
  const body = Buffer.alloc(size - head.length);
  for (let i = 0; i < body.length; i++) body[i] = (i * 31 + 7) % 251;
  return Buffer.concat([head, body]);
}

/**
 * The recording as the SDK uploads a browser File: its part carries the File's own type. In Node the
 * SDK's form-data ignores `sendFile`'s contentType for a Buffer and guesses from the name ('.webm'
 * is video/webm there), so the bytes go as a stream that names its type the way form-data reads it.
 */
function recording(bytes: Buffer, type: string): Readable {
  return Object.assign(Readable.from([bytes]), {
    httpVersion: '1.1',
    headers: { 'content-type': type, 'content-length': String(bytes.length) },
  });
}

// The widget names the File's type without the codec (what upload settings name); a File typed
// as MediaRecorder reports it (`audio/webm;codecs=opus`) is served and checked the same way.
const RECORDINGS = [
  { id: 'webm', browser: 'Chromium', kind: 'webm', name: 'voice-message.webm', sent: 'audio/webm', served: 'audio/webm' },
  { id: 'webm-opus', browser: 'Chromium, with the codec', kind: 'webm', name: 'voice-message.webm', sent: 'audio/webm;codecs=opus', served: 'audio/webm' },
  { id: 'mp4', browser: 'Safari', kind: 'mp4', name: 'voice-message.m4a', sent: 'audio/mp4', served: 'audio/mp4' },
] as const;
const [WEBM, , MP4] = RECORDINGS;

/** ~100 amplitudes in 0..1 at full float precision (the widget rounds them to 0.01: this is the larger case). */
function waveform(count = 100): number[] {
  return Array.from({ length: count }, (_, i) => Math.abs(Math.sin(i * 0.37) * Math.cos(i * 0.051)));
}

function voiceRecording(assetUrl: string, recorded: (typeof RECORDINGS)[number], size: number): Attachment {
  return {
    type: 'voiceRecording',
    asset_url: assetUrl,
    title: recorded.name,
    mime_type: recorded.served,
    file_size: size,
    duration: 7.315,
    waveform_data: waveform(),
  };
}

/** The bytes as a File's part (a Buffer's type is too wide for BlobPart). */
function blobPart(kind: 'webm' | 'mp4', size: number): Uint8Array<ArrayBuffer> {
  return new Uint8Array(audioBytes(kind, size));
}

async function upload(pair: Pair, recorded: (typeof RECORDINGS)[number], bytes: Buffer) {
  return pair.ac.sendFile(recording(bytes, recorded.sent) as never, recorded.name, recorded.sent);
}

async function get(url: string, headers: Record<string, string> = {}) {
  const response = await fetch(url, { headers });
  return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) };
}

describe('a voice recording, uploaded and played back', () => {
  it.each(RECORDINGS)('stores a $browser recording ($sent) and serves the same bytes as $served, whole and by range', async (recorded) => {
    const pair = await watchingPair(harness, `voice-up-${recorded.id}`);
    const bytes = audioBytes(recorded.kind, 6000);
    const response = await upload(pair, recorded, bytes);
    expect(response.file).toMatch(new RegExp(`^${harness.url}/uploads/[0-9a-f]{32}/${recorded.name.replace('.', '\\.')}$`));
    expect(response.thumb_url).toBeUndefined();

    const whole = await get(response.file);
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-type')).toBe(recorded.served);
    expect(whole.headers.get('accept-ranges')).toBe('bytes');
    expect(whole.headers.get('content-length')).toBe('6000');
    expect(whole.bytes.equals(bytes)).toBe(true);

    // What a media element asks first, then while seeking, then at the end (a WebM's duration).
    const cases: Array<[string, number, number]> = [
      ['bytes=0-', 0, 5999],
      ['bytes=100-1123', 100, 1123],
      ['bytes=-500', 5500, 5999],
      ['bytes=4000-999999', 4000, 5999],
      ['bytes=5999-5999', 5999, 5999],
    ];
    for (const [range, start, end] of cases) {
      const part = await get(response.file, { range });
      expect(part.status, range).toBe(206);
      expect(part.headers.get('content-range'), range).toBe(`bytes ${start}-${end}/6000`);
      expect(part.headers.get('content-length'), range).toBe(String(end - start + 1));
      expect(part.headers.get('content-type'), range).toBe(recorded.served);
      expect(part.bytes.equals(bytes.subarray(start, end + 1)), range).toBe(true);
    }
  });

  it('answers a range it cannot serve with 416 and the file size, and serves the whole file where HTTP says to ignore Range', async () => {
    const pair = await watchingPair(harness, 'voice-ranges');
    const bytes = audioBytes('webm', 3000);
    const { file } = await upload(pair, WEBM, bytes);

    for (const range of ['bytes=3000-', 'bytes=5000-6000', 'bytes=5-2', 'bytes=-0', 'bytes=-', 'bytes=abc']) {
      const refused = await fetch(file, { headers: { range } });
      expect(refused.status, range).toBe(416);
      expect(refused.headers.get('content-range'), range).toBe('bytes */3000');
      expect(await refused.json(), range).toMatchObject({ code: 4, StatusCode: 416, message: expect.stringMatching(/3000 bytes/) });
    }
    // Another unit, several ranges: the whole file (never a multipart answer).
    for (const range of ['items=0-10', 'bytes=0-1,5-6']) {
      const whole = await get(file, { range });
      expect(whole.status, range).toBe(200);
      expect(whole.bytes.equals(bytes), range).toBe(true);
    }
    // If-Range: the file's own ETag keeps the range; anything else asks for the whole file.
    const etag = (await fetch(file, { method: 'HEAD' })).headers.get('etag');
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
    expect((await get(file, { range: 'bytes=0-9', 'if-range': etag as string })).status).toBe(206);
    expect((await get(file, { range: 'bytes=0-9', 'if-range': '"something-else"' })).status).toBe(200);
  });
});

describe('a voiceRecording attachment', () => {
  it.each(RECORDINGS)('keeps every field of a $browser recording as sent: send, message.new, query, getMessage, an edit, search', async (recorded) => {
    const pair = await watchingPair(harness, `voice-msg-${recorded.id}`);
    const { a, b, ac, bc } = pair;
    const bytes = audioBytes(recorded.kind, 4096);
    const { file } = await upload(pair, recorded, bytes);
    const voice = voiceRecording(file, recorded, bytes.length);

    const received = nextEvent(bc, 'message.new');
    const sent = await ac.sendMessage({ text: '', attachments: [voice] });
    const id = sent.message.id;
    expect(sent.message.attachments).toEqual([voice]);
    expect((await received).message?.attachments).toEqual([voice]);

    expect((await bc.query({ messages: { limit: 10 } })).messages.find((m) => m.id === id)?.attachments).toEqual([voice]);
    expect((await b.getMessage(id)).message.attachments).toEqual([voice]);

    const updated = nextEvent(bc, 'message.updated');
    const edit = await a.partialUpdateMessage(id, { set: { text: 'listen to this' } });
    expect(edit.message.text).toBe('listen to this');
    expect(edit.message.attachments).toEqual([voice]);
    expect((await updated).message?.attachments).toEqual([voice]);
    expect((await b.getMessage(id)).message.attachments).toEqual([voice]);
    // An edit from the composer sends the whole message back (updateMessage).
    const rewritten = await a.updateMessage({ ...edit.message, text: 'listen to this, please' } as never);
    expect(rewritten.message.attachments).toEqual([voice]);

    const byText = await b.search({ cid: bc.cid }, 'listen');
    expect(byText.results.map((r) => r.message.attachments)).toEqual([[voice]]);
    const byType = await b.search({ cid: bc.cid }, { 'attachments.type': { $eq: 'voiceRecording' } } as never);
    expect(byType.results.map((r) => r.message.id)).toEqual([id]);
    expect(byType.results[0]?.message.attachments).toEqual([voice]);

    // The player's source is the upload itself.
    expect((await get(voice.asset_url as string)).bytes.equals(bytes)).toBe(true);
  });
});

describe('the app upload settings, for recordings', () => {
  /** The upload's failure as the SDK reports it, with the error JSON the backend answered. */
  async function refusal(call: Promise<unknown>) {
    try {
      await call;
    } catch (error) {
      const { status, response } = error as { status: number; response?: { data?: Record<string, unknown> } };
      return { status, body: response?.data };
    }
    throw new Error('the upload succeeded');
  }

  it('blocked_mime_types refuses audio/webm (400, code 4) and lets audio/mp4 through; a user client reads the setting from GET /app', async () => {
    const pair = await watchingPair(harness, 'voice-blocked');
    // Before any PATCH /app: the defaults, 100 MB and no lists, served to a user's client too.
    const before = await (await harness.connect('bob')).getAppSettings();
    expect(before.app?.file_upload_config).toEqual({
      allowed_file_extensions: [],
      blocked_file_extensions: [],
      allowed_mime_types: [],
      blocked_mime_types: [],
      size_limit: 104_857_600,
    });
    try {
      await harness.admin.updateAppSettings({ file_upload_config: { blocked_mime_types: ['audio/webm'] } });
      // A user's client: its attachment manager reads GET /app before uploading, and blocks.
      const visitor = await harness.connect('alice');
      const { app } = await visitor.getAppSettings();
      expect(app?.file_upload_config?.blocked_mime_types).toEqual(['audio/webm']);
      const check = visitor.channel('messaging', 'voice-blocked').messageComposer.attachmentManager.getUploadConfigCheck;
      expect(await check(new File([blobPart('webm', 100)], 'voice-message.webm', { type: 'audio/webm' }))).toEqual({
        uploadBlocked: true,
        reason: 'blocked_mime_types',
      });
      expect(await check(new File([blobPart('mp4', 100)], 'voice-message.m4a', { type: 'audio/mp4' }))).toEqual({ uploadBlocked: false });

      // The backend refuses whatever the client checked, the codec parameter or not.
      for (const type of ['audio/webm', 'audio/webm;codecs=opus', 'AUDIO/WEBM']) {
        const refused = await refusal(pair.ac.sendFile(recording(audioBytes('webm', 2000), type) as never, 'voice-message.webm', type));
        expect(refused.status, type).toBe(400);
        expect(refused.body, type).toEqual({
          code: 4,
          StatusCode: 400,
          message: expect.stringMatching(/blocked_mime_types.*audio\/webm/),
          duration: expect.any(String),
          more_info: expect.any(String),
          details: [],
        });
      }
      const mp4 = await upload(pair, MP4, audioBytes('mp4', 2000));
      expect((await get(mp4.file)).headers.get('content-type')).toBe('audio/mp4');
    } finally {
      await harness.admin.updateAppSettings({ file_upload_config: {} });
    }
  });

  it('allowed_mime_types lets only the listed recordings through; both lists at once are refused, as the provider does', async () => {
    const pair = await watchingPair(harness, 'voice-allowed');
    try {
      await harness.admin.updateAppSettings({ file_upload_config: { allowed_mime_types: ['audio/mp4'] } });
      const refused = await refusal(upload(pair, WEBM, audioBytes('webm', 2000)));
      expect(refused).toMatchObject({ status: 400, body: { code: 4, message: expect.stringMatching(/allowed_mime_types/) } });
      await expect(upload(pair, MP4, audioBytes('mp4', 2000))).resolves.toMatchObject({ file: expect.stringMatching(/voice-message\.m4a$/) });

      const both = { allowed_mime_types: ['audio/mp4'], blocked_mime_types: ['audio/webm'] };
      expect(await failure(harness.admin.updateAppSettings({ file_upload_config: both }))).toMatchObject({
        status: 400,
        code: 4,
        message: expect.stringMatching(/Cannot specify both allowed mime types and blocked mime types/),
      });
      const extensions = { allowed_file_extensions: ['.m4a'], blocked_file_extensions: ['.webm'] };
      expect(await failure(harness.admin.updateAppSettings({ file_upload_config: extensions }))).toMatchObject({ status: 400, code: 4 });
      // The refused PATCH changed nothing.
      expect((await harness.admin.getAppSettings()).app?.file_upload_config?.allowed_mime_types).toEqual(['audio/mp4']);
    } finally {
      await harness.admin.updateAppSettings({ file_upload_config: {} });
    }
  });

  it('size_limit refuses a larger recording (413) and keeps a smaller one, and the attachment manager sees the same limit', async () => {
    const pair = await watchingPair(harness, 'voice-size');
    try {
      await harness.admin.updateAppSettings({ file_upload_config: { size_limit: 4096 } });
      const visitor = await harness.connect('bob');
      expect((await visitor.getAppSettings()).app?.file_upload_config?.size_limit).toBe(4096);
      const check = visitor.channel('messaging', 'voice-size').messageComposer.attachmentManager.getUploadConfigCheck;
      expect(await check(new File([blobPart('webm', 5000)], 'voice-message.webm', { type: 'audio/webm' }))).toEqual({
        uploadBlocked: true,
        reason: 'size_limit',
      });

      const refused = await refusal(upload(pair, WEBM, audioBytes('webm', 5000)));
      expect(refused).toMatchObject({ status: 413, body: { code: 4, StatusCode: 413, message: expect.stringMatching(/size_limit.*4096 bytes/) } });
      const kept = await upload(pair, MP4, audioBytes('mp4', 4096));
      expect((await get(kept.file)).bytes.length).toBe(4096);
    } finally {
      await harness.admin.updateAppSettings({ file_upload_config: {} });
    }
  });
});

describe('voice recordings no recorder sends', () => {
  let pair: Pair;
  let asset: string;

  beforeAll(async () => {
    pair = await watchingPair(harness, 'voice-odd');
    asset = (await upload(pair, WEBM, audioBytes('webm', 1000))).file;
  });

  /** What JSON carries of `value` (NaN and Infinity become null). */
  const onTheWire = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

  it('stores odd shapes as sent, and NaN as the null JSON makes of it: strings, nested objects, negative and non-numeric durations', async () => {
    const { a, ac, bc } = pair;
    const odd: Attachment[] = [
      { type: 'voiceRecording', asset_url: asset, waveform_data: ['loud', 'quiet'] as never, duration: -3.5 },
      { type: 'voiceRecording', asset_url: asset, waveform_data: [{ peak: { at: [1, 2] } }, [0.5, [0.25]]] as never, duration: NaN },
      { type: 'voiceRecording', asset_url: asset, waveform_data: 'not a list' as never, duration: 'NaN' as never, file_size: -1 },
      { type: 'voiceRecording', asset_url: asset, waveform_data: null as never, duration: Infinity, mime_type: 42 as never },
    ];
    const received = nextEvent(bc, 'message.new');
    const sent = await ac.sendMessage({ text: 'odd', attachments: odd });
    expect(sent.message.attachments).toEqual(onTheWire(odd));
    expect((await received).message?.attachments).toEqual(onTheWire(odd));
    expect((await a.getMessage(sent.message.id)).message.attachments).toEqual(onTheWire(odd));
    expect((await bc.query({ messages: { limit: 50 } })).messages.at(-1)?.attachments).toEqual(onTheWire(odd));
    const found = await a.search({ cid: ac.cid }, { 'attachments.type': { $eq: 'voiceRecording' } } as never);
    expect(found.results.map((r) => r.message.id)).toContain(sent.message.id);
  });

  it('keeps 200 full-precision amplitudes, and refuses a 100,000-element waveform with the provider\'s 413 (code 22), storing nothing', async () => {
    const { a, ac } = pair;
    const long = { type: 'voiceRecording', asset_url: asset, duration: 1, waveform_data: waveform(200) };
    await expect(ac.sendMessage({ text: '', attachments: [long] })).resolves.toMatchObject({ message: { attachments: [long] } });

    const absurd = { type: 'voiceRecording', asset_url: asset, duration: 1, waveform_data: waveform(100_000) };
    const id = 'voice-absurd';
    expect(await failure(ac.sendMessage({ id, text: '', attachments: [absurd] }))).toMatchObject({
      status: 413,
      code: 22,
      message: expect.stringMatching(/custom data of an attachment is larger than 5KB/),
    });
    expect(await failure(a.getMessage(id))).toMatchObject({ status: 404, code: 16 });
    // The bound is each attachment's: ten recordings of 100 unrounded amplitudes (stream-chat-react's) go.
    const ten = Array.from({ length: 10 }, () => ({ type: 'voiceRecording', asset_url: asset, duration: 1, mime_type: 'audio/webm', file_size: 1000, waveform_data: waveform(100) }));
    await expect(ac.sendMessage({ text: 'ten', attachments: ten })).resolves.toMatchObject({ message: { attachments: ten } });
  });

  it('refuses the absurd waveform on an edit, a partial update and a draft too, and keeps the message as it was', async () => {
    const { a, ac } = pair;
    const voice = voiceRecording(asset, WEBM, 1000);
    const { message } = await ac.sendMessage({ text: 'before', attachments: [voice] });
    const absurd = { ...voice, waveform_data: waveform(100_000) };

    expect(await failure(a.updateMessage({ ...message, text: 'after', attachments: [absurd] } as never))).toMatchObject({ status: 413, code: 22 });
    expect(await failure(a.partialUpdateMessage(message.id, { set: { attachments: [absurd] } }))).toMatchObject({ status: 413, code: 22 });
    expect(await failure(ac.createDraft({ text: '', attachments: [absurd] }))).toMatchObject({ status: 413, code: 22 });
    const kept = (await a.getMessage(message.id)).message;
    expect(kept.text).toBe('before');
    expect(kept.attachments).toEqual([voice]);
  });

  it('refuses a waveform nested past the JSON depth limit with code 4, never a 500', async () => {
    let deep: unknown = 0.5;
    for (let i = 0; i < 80; i++) deep = [deep];
    const refused = await failure(pair.ac.sendMessage({ text: '', attachments: [{ type: 'voiceRecording', asset_url: asset, waveform_data: deep as never }] }));
    expect(refused).toMatchObject({ status: 400, code: 4 });
  });
});
