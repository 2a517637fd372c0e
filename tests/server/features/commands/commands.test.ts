// Slash commands: the channel type's list in config.commands (built-ins and custom commands from
// /commands), and the built-ins run on send, answering only the sender.
import type { CommandVariants } from 'stream-chat';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { collectEvents, createUsers, nextEvent, startHarness, type Harness } from '../../helpers';
import { sleep, watchingPair } from '../../scenes';

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness();
  await createUsers(harness, 'alice', 'bob', 'carol');
});

afterAll(async () => {
  await harness?.close();
});

describe('command list', () => {
  it('lists the built-ins in channel.config.commands like the provider: name, description, args, set', async () => {
    const { ac } = await watchingPair(harness, 'cmd-list');
    const commands = ac.getConfig()?.commands ?? [];
    expect(commands.map((c) => c.name)).toEqual(expect.arrayContaining(['giphy', 'ban', 'unban', 'mute', 'unmute']));
    expect(commands.find((c) => c.name === 'mute')).toEqual({
      name: 'mute',
      description: 'Mute a user',
      args: '[@username]',
      set: 'moderation_set',
    });
  });

  it('adds, reads, changes and deletes custom commands (server-side only); channels offer them and the composer suggests them', async () => {
    const { admin } = harness;
    // Custom names are the app's own strings, outside the SDK's CommandVariants union.
    const ticket = 'ticket' as CommandVariants;
    const created = await admin.createCommand({ name: ticket, description: 'Open a ticket', args: '[text]', set: 'support_set' as CommandVariants });
    expect(created.command).toMatchObject({ name: 'ticket', description: 'Open a ticket', args: '[text]', set: 'support_set' });
    expect((await admin.getCommand('ticket')).description).toBe('Open a ticket');
    expect((await admin.updateCommand('ticket', { description: 'Open a support ticket' })).command.description).toBe('Open a support ticket');
    expect((await admin.listCommands()).commands.map((c) => c.name)).toEqual(expect.arrayContaining(['giphy', 'ticket']));
    await expect(admin.createCommand({ name: ticket, description: 'again' })).rejects.toThrow(/already exists/);
    await expect(admin.updateCommand('giphy', { description: 'mine now' })).rejects.toThrow(/built-in command/);
    const alice = await harness.connect('alice');
    await expect(alice.createCommand({ name: 'hack' as CommandVariants, description: 'no' })).rejects.toMatchObject({ code: 17 });

    const { ac, bc } = await watchingPair(harness, 'cmd-custom');
    expect(ac.getConfig()?.commands?.find((c) => c.name === ticket)?.description).toBe('Open a support ticket');
    const textComposer = ac.messageComposer.textComposer;
    await textComposer.handleChange({ text: '/tic', selection: { start: 4, end: 4 } });
    await vi.waitFor(() => expect(textComposer.suggestions?.searchSource.items?.map((i) => i.id)).toEqual(['ticket']));

    // A custom command has no handler offline: its message is stored and delivered as written.
    const received = nextEvent(bc, 'message.new');
    await ac.sendMessage({ text: '/ticket printer is on fire' });
    expect((await received).message?.text).toBe('/ticket printer is on fire');

    await admin.deleteCommand('ticket');
    await expect(admin.getCommand('ticket')).rejects.toMatchObject({ code: 16 });
    await expect(ac.sendMessage({ text: '/ticket again' })).rejects.toMatchObject({ code: 4 });
  });
  it('takes names with capitals (OrderStatus): create, get, update, list and delete, and the command runs by that name', async () => {
    const { admin } = harness;
    const name = 'OrderStatus' as CommandVariants;
    expect((await admin.createCommand({ name, description: 'Where is my order?', args: '[order id]' })).command?.name).toBe('OrderStatus');
    expect((await admin.getCommand('OrderStatus')).args).toBe('[order id]');
    expect((await admin.updateCommand('OrderStatus', { description: 'Track an order' })).command.description).toBe('Track an order');
    expect((await admin.listCommands()).commands.map((c) => c.name)).toContain('OrderStatus');
    const { ac } = await watchingPair(harness, 'cmd-capitals', 'carol', 'dave');
    expect((await ac.sendMessage({ text: '/OrderStatus 1234' })).message.text).toBe('/OrderStatus 1234');
    await admin.deleteCommand('OrderStatus');
    await expect(admin.getCommand('OrderStatus')).rejects.toMatchObject({ code: 16 });
    await expect(admin.createCommand({ name: 'Order Status' as CommandVariants, description: 'spaces' })).rejects.toMatchObject({ code: 4 });
  });
});

describe('running commands', () => {
  it('/mute @bob mutes bob for alice: an ephemeral confirmation to her alone, notification.mutes_updated, nothing stored', async () => {
    const { a, ac, bc } = await watchingPair(harness, 'cmd-mute');
    const bobMessages = collectEvents(bc, 'message.new');
    const mutesUpdated = nextEvent(a, 'notification.mutes_updated');
    const { message } = await ac.sendMessage({ id: 'mute-1', text: '/mute @Bob', mentioned_users: ['bob'] });
    expect(message).toMatchObject({ id: 'mute-1', type: 'ephemeral', command: 'mute', text: 'Bob has been muted.', user: { id: 'alice' } });
    expect((await mutesUpdated).me?.mutes.map((m) => m.target.id)).toEqual(['bob']);
    expect(a.mutedUsers.map((m) => m.target.id)).toEqual(['bob']);

    const unmuted = nextEvent(a, 'notification.mutes_updated');
    const { message: unmute } = await ac.sendMessage({ text: '/unmute bob' });
    expect(unmute).toMatchObject({ type: 'ephemeral', text: 'Bob has been unmuted.' });
    expect((await unmuted).me?.mutes).toEqual([]);
    await sleep(50);
    expect(bobMessages.events).toEqual([]);
    expect((await ac.query({})).messages).toEqual([]);
  });

  it('/ban @bob by the channel owner bans him (user.banned) until /unban; his messages are refused meanwhile', async () => {
    const { ac, bc } = await watchingPair(harness, 'cmd-ban');
    const banned = nextEvent(bc, 'user.banned');
    const { message } = await ac.sendMessage({ text: '/ban @bob spamming', mentioned_users: ['bob'] });
    expect(message).toMatchObject({ type: 'ephemeral', command: 'ban', text: 'Bob has been banned from this channel.' });
    expect(await banned).toMatchObject({ user: { id: 'bob' }, cid: 'messaging:cmd-ban', reason: 'spamming' });
    await expect(bc.sendMessage({ text: 'let me talk' })).rejects.toMatchObject({ code: 17, status: 403 });

    const unbanned = nextEvent(bc, 'user.unbanned');
    await ac.sendMessage({ text: '/unban @bob', mentioned_users: ['bob'] });
    await unbanned;
    await expect(bc.sendMessage({ text: 'thanks' })).resolves.toBeDefined();
  });

  it('answers /ban by a member without ban-channel-members with an ephemeral error, and bans nobody', async () => {
    const { ac, bc } = await watchingPair(harness, 'cmd-ban-denied');
    const { message } = await bc.sendMessage({ text: '/ban @alice', mentioned_users: ['alice'] });
    expect(message).toMatchObject({ type: 'error', command: 'ban', text: 'You are not allowed to ban users in this channel.' });
    await expect(ac.sendMessage({ text: 'still here' })).resolves.toBeDefined();
  });

  it('answers /giphy with an ephemeral error: its service is out of reach offline', async () => {
    const { ac } = await watchingPair(harness, 'cmd-giphy');
    const { message } = await ac.sendMessage({ text: '/giphy cats' });
    expect(message).toMatchObject({ type: 'error', command: 'giphy', text: expect.stringMatching(/GIPHY is not available/) });
    // The SDK's command selection sends `command` with the text it injected.
    expect((await ac.sendMessage({ text: '/giphy dogs', command: 'giphy' } as never)).message.type).toBe('error');
  });

  it('refuses an unknown command with code 4 and errors on a command without its user', async () => {
    const { ac } = await watchingPair(harness, 'cmd-unknown');
    await expect(ac.sendMessage({ text: '/shrug' })).rejects.toThrow(/code 4: \/shrug is not a command in messaging channels/);
    expect((await ac.sendMessage({ text: '/mute' })).message).toMatchObject({ type: 'error', text: '/mute needs a user: /mute @user' });
    expect((await ac.sendMessage({ text: '/mute @nobody-here' })).message.type).toBe('error');
    expect((await ac.sendMessage({ text: '/mute @alice' })).message.text).toBe('You cannot mute yourself.');
    // Not a command: a path, or a slash later in the text.
    await expect(ac.sendMessage({ text: '/usr/bin is a path' })).resolves.toMatchObject({ message: { type: 'regular' } });
  });
});
