// Uploads through the SDK's own upload calls (channel file/image endpoints, app-level uploads):
// stored, served back by URL, sized for images, refused by the app's upload checks, and deleted.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUsers, nextEvent, startHarness, type Harness } from '../../helpers';
import { watchingPair } from '../../scenes';

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness({
    fileUploadConfig: { size_limit: 2048, blocked_file_extensions: ['.exe'], blocked_mime_types: ['text/csv'] },
    imageUploadConfig: { size_limit: 4096 },
  });
  await createUsers(harness, 'alice', 'bob', 'carol');
});

afterAll(async () => {
  await harness?.close();
});

/** A PNG header that declares `width`×`height` (enough for anything that reads dimensions). */
function png(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(25);
  ihdr.writeUInt32BE(13, 0);
  ihdr.write('IHDR', 4, 'latin1');
  ihdr.writeUInt32BE(width, 8);
  ihdr.writeUInt32BE(height, 12);
  ihdr[16] = 8;
  ihdr[17] = 6;
  return Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), ihdr, Buffer.from('0000000049454e44ae426082', 'hex')]);
}

describe('uploads', () => {
  it('serves the upload checks in GET /app, and the SDK attachment manager blocks by them before uploading', async () => {
    const { ac } = await watchingPair(harness, 'up-config');
    const { app } = await ac.getClient().getAppSettings();
    expect(app?.file_upload_config).toMatchObject({ size_limit: 2048, blocked_file_extensions: ['.exe'], blocked_mime_types: ['text/csv'] });
    expect(app?.image_upload_config?.size_limit).toBe(4096);
    const check = ac.messageComposer.attachmentManager.getUploadConfigCheck;
    expect(await check(new File(['MZ'], 'tool.exe', { type: 'application/octet-stream' }))).toEqual({
      uploadBlocked: true,
      reason: 'blocked_file_extensions',
    });
    expect(await check(new File(['x'.repeat(3000)], 'notes.txt', { type: 'text/plain' }))).toEqual({ uploadBlocked: true, reason: 'size_limit' });
    expect(await check(new File(['fine'], 'notes.txt', { type: 'text/plain' }))).toEqual({ uploadBlocked: false });
  });

  it('stores an image, answers its URL with original_width/original_height, and serves it back inline', async () => {
    const { a } = await watchingPair(harness, 'up-image');
    const bytes = png(640, 480);
    const response = await a.sendFile(`${harness.url}/channels/messaging/up-image/image`, bytes, 'photo.png');
    expect(response).toMatchObject({ original_width: 640, original_height: 480 });
    expect(response.file).toMatch(new RegExp(`^${harness.url}/uploads/[0-9a-f]{32}/photo\\.png$`));
    expect(response.thumb_url).toBe(response.file);

    const served = await fetch(response.file);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(served.headers.get('content-disposition')).toMatch(/^inline/);
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await served.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it('serves a file as a download under its name, and fills in an uploaded image\'s size on the message bob receives', async () => {
    const { a, ac, bc } = await watchingPair(harness, 'up-file');
    const file = await ac.sendFile(Buffer.from('hello, world'), 'hello world.txt');
    expect(file.file).toMatch(/\/hello_world\.txt$/);
    expect(file.thumb_url).toBeUndefined();
    const served = await fetch(file.file);
    expect(served.headers.get('content-type')).toBe('text/plain');
    expect(served.headers.get('content-disposition')).toBe("attachment; filename*=UTF-8''hello_world.txt");
    expect(await served.text()).toBe('hello, world');

    const image = await a.sendFile(`${harness.url}/channels/messaging/up-file/image`, png(32, 16), 'dot.png');
    const received = nextEvent(bc, 'message.new');
    // What the SDK's attachment manager builds from the upload: no dimensions.
    await ac.sendMessage({
      text: 'files',
      attachments: [
        { type: 'file', asset_url: file.file, title: 'hello world.txt', mime_type: 'text/plain' },
        { type: 'image', image_url: image.file, thumb_url: image.thumb_url, fallback: 'dot.png' },
      ],
    });
    const attachments = (await received).message?.attachments;
    expect(attachments?.[1]).toMatchObject({ image_url: image.file, original_width: 32, original_height: 16 });
    expect(attachments?.[0]?.original_width).toBeUndefined();
  });

  it('accepts app-level uploads at /uploads/file and /uploads/image', async () => {
    const alice = await harness.connect('alice');
    const file = await alice.uploadFile(Buffer.from('app level'), 'app.txt');
    expect(await (await fetch(file.file)).text()).toBe('app level');
    const image = await alice.sendFile(`${harness.url}/uploads/image`, png(2, 3), 'tiny.png');
    expect(image).toMatchObject({ original_width: 2, original_height: 3 });
  });

  it('deletes a file by its URL; only its uploader may', async () => {
    const { ac, bc } = await watchingPair(harness, 'up-delete');
    const { file } = await ac.sendFile(Buffer.from('temporary'), 'temp.txt');
    await expect(bc.deleteFile(file)).rejects.toMatchObject({ code: 17, status: 403 });
    await ac.deleteFile(file);
    expect((await fetch(file)).status).toBe(404);
    await expect(ac.deleteFile(file)).rejects.toMatchObject({ code: 16 });
  });
});

describe('uploads refused', () => {
  it('refuses a file over the size limit with 413 and code 4', async () => {
    const { ac } = await watchingPair(harness, 'up-big');
    await expect(ac.sendFile(Buffer.alloc(2049, 1), 'big.bin')).rejects.toMatchObject({ code: 4, status: 413 });
    await expect(ac.sendFile(Buffer.alloc(2049, 1), 'big.bin')).rejects.toThrow(/size_limit.*2048 bytes/);
    // The image endpoint has its own, larger limit.
    const { a } = await watchingPair(harness, 'up-big-image');
    const image = Buffer.concat([png(10, 10), Buffer.alloc(3000)]);
    await expect(a.sendFile(`${harness.url}/channels/messaging/up-big-image/image`, image, 'big.png')).resolves.toMatchObject({
      original_width: 10,
    });
  });

  it('refuses a blocked extension and a blocked mime type, saying which rule', async () => {
    const { ac } = await watchingPair(harness, 'up-blocked');
    await expect(ac.sendFile(Buffer.from('MZ'), 'setup.EXE')).rejects.toThrow(/code 4: upload refused \(blocked_file_extensions\)/);
    await expect(ac.sendFile(Buffer.from('a,b'), 'table.csv')).rejects.toThrow(/code 4: upload refused \(blocked_mime_types\): text\/csv/);
  });

  it('refuses an empty file, a missing file field and a non-image on the image endpoint', async () => {
    const { a, ac } = await watchingPair(harness, 'up-empty');
    await expect(ac.sendFile(Buffer.alloc(0), 'empty.txt')).rejects.toThrow(/code 4: .*empty/);
    const noFile = await harness.request('/channels/messaging/up-empty/file', {
      method: 'POST',
      token: harness.token('alice'),
      body: 'plain',
      headers: { 'content-type': 'text/plain' },
    });
    expect(noFile.body).toMatchObject({ code: 4, message: expect.stringMatching(/multipart/) });
    await expect(a.sendFile(`${harness.url}/channels/messaging/up-empty/image`, Buffer.from('not an image'), 'a.txt')).rejects.toThrow(
      /not an image/,
    );
    await expect(a.sendFile(`${harness.url}/channels/messaging/up-empty/image`, Buffer.from('garbage'), 'fake.png')).rejects.toThrow(
      /not a readable image/,
    );
  });

  it('refuses uploads from users without upload-file (a non-member, an anonymous visitor) with code 17', async () => {
    await watchingPair(harness, 'up-members');
    const carol = await harness.connect('carol');
    const carolChannel = carol.channel('messaging', 'up-members');
    await expect(carolChannel.sendFile(Buffer.from('hi'), 'hi.txt')).rejects.toMatchObject({ code: 17, status: 403 });
    const anonymous = harness.client();
    await anonymous.connectAnonymousUser();
    await expect(anonymous.uploadFile(Buffer.from('hi'), 'hi.txt')).rejects.toMatchObject({ code: 17 });
  });
});
