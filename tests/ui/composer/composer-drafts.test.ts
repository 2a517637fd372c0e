import { fireEvent, waitFor } from '@testing-library/preact';
import type { StreamChat } from 'stream-chat';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DRAFT_SAVE_DELAY_MS } from '../../../src/session/composer-setup';
import { record } from '../../element/helpers';
import { otherUser, useBackend } from '../backend';
import { clientOf, openWidget, type } from './composer-helpers';

const backend = useBackend();
// The same users on another device, to read and write their drafts.
const devices: Record<string, StreamChat> = {};
beforeAll(async () => {
  for (const user of ['alice', 'carol']) devices[user] = await otherUser(backend.server.url, user);
});
afterAll(async () => {
  for (const client of Object.values(devices)) await client.disconnectUser();
});

const draftTexts = async (user: string) => {
  const { drafts } = await (devices[user] as StreamChat).queryDrafts({ filter: { channel_cid: 'messaging:general' } });
  return drafts.map((draft) => draft.message.text);
};

describe('drafts', () => {
  it('are off by default: nothing typed is saved', async () => {
    const { textarea } = await openWidget(backend.server.url, 'carol');
    type(textarea, 'Not meant to be kept');
    await new Promise((resolve) => setTimeout(resolve, DRAFT_SAVE_DELAY_MS + 500));
    expect(await draftTexts('carol')).toEqual([]);
  });

  it('with the drafts attribute, save what is typed and restore it after a reload', async () => {
    const first = await openWidget(backend.server.url, 'alice', { drafts: true });
    type(first.textarea, 'Half-written thought');
    await waitFor(async () => expect(await draftTexts('alice')).toEqual(['Half-written thought']), { timeout: 4000 });
    first.el.remove();

    const again = await openWidget(backend.server.url, 'alice', { drafts: true });
    await waitFor(() => expect(again.textarea.value).toBe('Half-written thought'));
  });

  it('follow a draft written on another device, and sending deletes it', async () => {
    const { el, textarea } = await openWidget(backend.server.url, 'alice', { drafts: true });
    await (devices.alice as StreamChat).channel('messaging', 'general').createDraft({ text: 'Started on my phone' });
    await waitFor(() => expect(textarea.value).toBe('Started on my phone'));

    const sent = record(el, 'chat-widget-message-sent');
    type(textarea, 'Started on my phone, finished here');
    fireEvent.keyDown(textarea, { key: 'Enter' });
    await waitFor(() => expect(sent).toHaveLength(1));
    await waitFor(async () => expect(await draftTexts('alice')).toEqual([]), { timeout: 4000 });
    // Nothing comes back once the draft is gone.
    await new Promise((resolve) => setTimeout(resolve, DRAFT_SAVE_DELAY_MS + 300));
    expect(textarea.value).toBe('');
    expect(await draftTexts('alice')).toEqual([]);
  });

  it('keep keys typed while a save is on its way when the backend echoes the saved draft', async () => {
    const { el, textarea } = await openWidget(backend.server.url, 'alice', { drafts: true });
    const channel = clientOf(el).channel('messaging', 'general');
    const createDraft = channel.createDraft.bind(channel);
    let raced = false;
    // The save leaves with "Hello"; before its draft.updated comes back, two more keys land.
    channel.createDraft = (draft) => {
      if (!raced && draft.text === 'Hello') {
        raced = true;
        type(textarea, 'Hello!!');
      }
      return createDraft(draft);
    };
    type(textarea, 'Hello');
    await waitFor(() => expect(raced).toBe(true), { timeout: 4000 });
    await waitFor(async () => expect(await draftTexts('alice')).toEqual(['Hello!!']), { timeout: 4000 });
    expect(textarea.value).toBe('Hello!!');
    channel.createDraft = createDraft;
    type(textarea, '');
    await waitFor(async () => expect(await draftTexts('alice')).toEqual([]), { timeout: 4000 });
  });
});
