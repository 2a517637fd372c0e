// Message reminders through the SDK: create, change, delete and list them; the events that keep
// ReminderManager in step; the due notification; and `reminder` on messages for their owner only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUsers, nextEvent, startHarness, type Harness } from '../../helpers';
import { watchingPair } from '../../scenes';

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness();
  await createUsers(harness, 'alice', 'bob', 'tess', 'uma');
});

afterAll(async () => {
  await harness?.close();
});

const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString();

describe('reminders', () => {
  it('creates a reminder: reminder.created, ReminderManager state, and `reminder` on the message for its owner only', async () => {
    const { a, b, ac, bc } = await watchingPair(harness, 'remind');
    const { message } = await bc.sendMessage({ text: 'call the bank' });
    a.reminders.registerSubscriptions();
    const created = nextEvent(a, 'reminder.created');
    const remindAt = inAnHour();
    const { reminder } = await a.createReminder({ messageId: message.id, remind_at: remindAt });
    expect(reminder).toMatchObject({ message_id: message.id, user_id: 'alice', channel_cid: 'messaging:remind', remind_at: remindAt });
    expect(reminder.message.id).toBe(message.id);
    expect((await created).reminder?.message_id).toBe(message.id);
    expect(a.reminders.getFromState(message.id)).toBeDefined();

    const asAlice = (await ac.query({})).messages.find((m) => m.id === message.id);
    expect(asAlice?.reminder).toMatchObject({ remind_at: remindAt, user_id: 'alice' });
    const asBob = (await bc.query({})).messages.find((m) => m.id === message.id);
    expect(asBob?.reminder).toBeUndefined();
    expect(b.reminders.getFromState(message.id)).toBeUndefined();
    a.reminders.unregisterSubscriptions();
  });

  it('refuses a second reminder on the same message with the text ReminderManager recognises (code 4)', async () => {
    const { a, bc } = await watchingPair(harness, 'remind-twice');
    const { message } = await bc.sendMessage({ text: 'once' });
    await a.createReminder({ messageId: message.id });
    await expect(a.createReminder({ messageId: message.id })).rejects.toMatchObject({ code: 4 });
    await expect(a.createReminder({ messageId: message.id })).rejects.toThrow(/already has reminder created for this message_id/);
  });

  it('updates remind_at (reminder.updated, null = save for later) and deletes (reminder.deleted); a missing one is 16', async () => {
    const { a, bc } = await watchingPair(harness, 'remind-change');
    const { message } = await bc.sendMessage({ text: 'later' });
    await a.createReminder({ messageId: message.id, remind_at: inAnHour() });
    const updated = nextEvent(a, 'reminder.updated');
    const { reminder } = await a.updateReminder({ messageId: message.id, remind_at: null });
    expect(reminder.remind_at).toBeUndefined();
    expect((await updated).reminder?.remind_at).toBeUndefined();
    const deleted = nextEvent(a, 'reminder.deleted');
    await a.deleteReminder(message.id);
    expect((await deleted).message_id).toBe(message.id);
    await expect(a.deleteReminder(message.id)).rejects.toThrow(/reminder does not exist/);
    await expect(a.updateReminder({ messageId: message.id, remind_at: null })).rejects.toMatchObject({ code: 16 });
    await expect(a.createReminder({ messageId: message.id, remind_at: 'next tuesday' })).rejects.toMatchObject({ code: 4 });
  });

  it('lists the user\'s reminders with a filter, sorted by remind_at, paged with next', async () => {
    const { a, ac, bc } = await watchingPair(harness, 'remind-list', 'tess', 'bob');
    const ids: string[] = [];
    for (const hours of [3, 1, 2]) {
      const { message } = await bc.sendMessage({ text: `in ${hours}h` });
      ids.push(message.id);
      await a.createReminder({ messageId: message.id, remind_at: new Date(Date.now() + hours * 3_600_000).toISOString() });
    }
    const { message: saved } = await ac.sendMessage({ text: 'saved' });
    await a.createReminder({ messageId: saved.id });
    const first = await a.queryReminders({ filter: { remind_at: { $exists: true } }, sort: { remind_at: 1 }, limit: 2 });
    expect(first.reminders.map((r) => r.message.text)).toEqual(['in 1h', 'in 2h']);
    const second = await a.queryReminders({ filter: { remind_at: { $exists: true } }, sort: { remind_at: 1 }, limit: 2, next: first.next });
    expect(second.reminders.map((r) => r.message.text)).toEqual(['in 3h']);
    expect(second.next).toBeUndefined();
    const later = await a.queryReminders({ filter: { remind_at: { $exists: false } } });
    expect(later.reminders.map((r) => r.message_id)).toEqual([saved.id]);
  });

  it('sends notification.reminder_due to the owner when the reminder comes due', async () => {
    const { a, bc } = await watchingPair(harness, 'remind-due', 'uma', 'bob');
    const { message } = await bc.sendMessage({ text: 'soon' });
    const due = nextEvent(a, 'notification.reminder_due', () => true, 3000);
    await a.createReminder({ messageId: message.id, remind_at: new Date(Date.now() + 300).toISOString() });
    const event = await due;
    expect(event.reminder).toMatchObject({ message_id: message.id, user_id: 'uma' });
    expect(event.cid).toBe('messaging:remind-due');
  });
});
