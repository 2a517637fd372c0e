import { fireEvent, waitFor } from '@testing-library/preact';
import type { ChatWidgetElement } from '../../../src/entries/chat-widget';
import { describe, expect, it } from 'vitest';
import { part, shadow } from '../../element/helpers';
import { otherUser, useBackend } from '../backend';
import { all, chooseTool, clientOf, find, one, openWidget, type } from './composer-helpers';

const backend = useBackend();

// The poll composer applies each change asynchronously from the state it started with, so, like
// a person, give each change a task of its own before the next.
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
const fill = async (input: HTMLElement, value: string) => {
  (input as HTMLInputElement).value = value;
  fireEvent.input(input);
  await settle();
};
const click = async (target: HTMLElement) => {
  fireEvent.click(target);
  await settle();
};
// Leaving a field is when the poll composer checks it (Preact listens for focusout).
const blur = (input: HTMLElement) => input.dispatchEvent(new FocusEvent('focusout', { bubbles: true }));
const field = (el: ChatWidgetElement, label: string) => shadow(el).getByLabelText(label) as HTMLInputElement;
const errorOf = (input: HTMLElement) => {
  const id = input.getAttribute('aria-describedby');
  return id ? (input.getRootNode() as ShadowRoot).getElementById(id)?.textContent : undefined;
};
const createButton = (el: ChatWidgetElement) => part(el, 'create-poll-button') as HTMLButtonElement;

const pollCard = (el: ChatWidgetElement, question: string) => find(el, `[part~="poll"][aria-label="Poll: ${question}"]`);
const option = (card: HTMLElement, text: string) =>
  Array.from(card.querySelectorAll<HTMLButtonElement>('[part~="poll-option"]')).find((o) => o.querySelector('.poll-option-text')?.textContent === text) as HTMLButtonElement;
const countOf = (card: HTMLElement, text: string) => option(card, text)?.querySelector('.poll-count')?.textContent;

describe('creating a poll', () => {
  it('shows each validation text of the poll composer beside its field and creates only a valid poll', async () => {
    const { el, textarea } = await openWidget(backend.server.url, 'alice');
    type(textarea, 'typed before the poll');
    await chooseTool(el, 'Poll');
    await find(el, '[part~="poll-form"]');
    expect(createButton(el).disabled).toBe(true);

    const question = field(el, 'Question');
    blur(question);
    await waitFor(() => expect(errorOf(question)).toBe('Question is required'));
    await fill(question, 'Where shall we meet?');
    await waitFor(() => expect(errorOf(question)).toBeUndefined());

    await fill(field(el, 'Option 1'), 'Harbor');
    // A blank option is appended while none is blank.
    await waitFor(() => expect(all(el, '.poll-option-field input')).toHaveLength(2));
    await fill(field(el, 'Option 2'), 'Harbor');
    await waitFor(() => expect(errorOf(field(el, 'Option 2'))).toBe('Option already exists'));
    expect(createButton(el).disabled).toBe(true);
    await fill(field(el, 'Option 2'), 'Lighthouse');
    await waitFor(() => expect(errorOf(field(el, 'Option 2'))).toBeUndefined());
    await fill(field(el, 'Option 1'), ' ');
    blur(field(el, 'Option 1'));
    await waitFor(() => expect(errorOf(field(el, 'Option 1'))).toBe('Option is empty'));
    await fill(field(el, 'Option 1'), 'Harbor');
    await waitFor(() => expect(errorOf(field(el, 'Option 1'))).toBeUndefined());
    expect(all(el, '.poll-option-field input').map((i) => (i as HTMLInputElement).value)).toEqual(['Harbor', 'Lighthouse', '']);

    const maxVotes = field(el, 'Votes per person (2 to 10, or empty)');
    await fill(maxVotes, '3');
    await waitFor(() => expect(errorOf(maxVotes)).toBe('Enforce unique vote is enabled'));
    expect(createButton(el).disabled).toBe(true);
    await click(field(el, 'One vote per person'));
    // Allowing several votes clears the value and its error.
    await waitFor(() => expect([maxVotes.value, errorOf(maxVotes)]).toEqual(['', undefined]));
    await fill(maxVotes, '11');
    await waitFor(() => expect(maxVotes.value).toBe('10')); // the SDK keeps it within 2 to 10
    await fill(maxVotes, '3');
    await click(field(el, 'Let people add comments'));
    await click(field(el, 'Anonymous: voters are not shown'));
    await waitFor(() => expect(createButton(el).disabled).toBe(false));

    fireEvent.click(createButton(el));
    const card = await pollCard(el, 'Where shall we meet?');
    expect(Array.from(card.querySelectorAll('.poll-option-text')).map((o) => o.textContent)).toEqual(['Harbor', 'Lighthouse']);
    expect(card.querySelector('.poll-rule')?.textContent).toBe('Choose up to 3 · anonymous');
    expect(one(el, '[part~="poll-form"]')).toBeNull();
    // The poll went out as a message of its own: the text waits for the next one.
    expect(textarea.value).toBe('typed before the poll');
  });

  it('keeps the form open with the reason when the backend refuses the poll', async () => {
    const { el } = await openWidget(backend.server.url, 'alice');
    await chooseTool(el, 'Poll');
    await find(el, '[part~="poll-form"]');
    await fill(field(el, 'Question'), 'Why? '.repeat(201)); // the backend takes at most 1000 characters
    await fill(field(el, 'Option 1'), 'Because');
    await waitFor(() => expect(createButton(el).disabled).toBe(false));
    fireEvent.click(createButton(el));
    const alert = await find(el, '[part~="poll-form"] [role="alert"]');
    expect(alert.textContent).toBe('The poll was not created: name is longer than 1000 characters.');
    expect(createButton(el).disabled).toBe(false);
    expect(all(el, '[part~="poll"]').filter((poll) => poll.getAttribute('aria-label')?.startsWith('Poll: Why?'))).toEqual([]);
  });

  it('renders the texts the poll composer gives for max votes beside the field', async () => {
    const { el } = await openWidget(backend.server.url, 'alice');
    await chooseTool(el, 'Poll');
    const { pollComposer } = clientOf(el).channel('messaging', 'general').messageComposer;
    for (const text of ['Type a number from 2 to 10', 'Only numbers are allowed']) {
      await pollComposer.updateFields({}, { max_votes_allowed: text });
      await waitFor(() => expect(errorOf(field(el, 'Votes per person (2 to 10, or empty)'))).toBe(text));
    }
  });

  it('offers polls and locations only outside threads and not while editing', async () => {
    const { el, textarea } = await openWidget(backend.server.url, 'alice');
    const menu = async () => {
      fireEvent.click(part(el, 'composer-menu-button') as HTMLElement);
      const items = await waitFor(() => {
        const found = all(el, '[part~="composer-menu"] button').map((i) => i.textContent);
        if (!found.length) throw new Error('menu not open');
        return found;
      });
      fireEvent.click(part(el, 'composer-menu-button') as HTMLElement);
      return items;
    };
    expect(await menu()).toEqual(['Photo or file', 'Poll', 'Location']);

    type(textarea, 'A message to edit and reply to');
    fireEvent.keyDown(textarea, { key: 'Enter' });
    const mine = await find(el, '[part~="own-message"]');
    const choose = async (label: string) => {
      (mine.querySelector('[part~="message-actions-button"]') as HTMLButtonElement).click();
      (await shadow(el).findByRole('menuitem', { name: label })).click();
    };
    await choose('Edit');
    await waitFor(() => expect(part(el, 'composer-context')?.textContent).toMatch(/Editing/));
    expect(await menu()).toEqual(['Photo or file']);
    fireEvent.keyDown(textarea, { key: 'Escape' });
    await waitFor(() => expect(part(el, 'composer-context')).toBeNull());

    await choose('Reply in thread');
    await waitFor(() => expect(part(el, 'thread')).not.toBeNull(), { timeout: 5000 });
    expect(await menu()).toEqual(['Photo or file']);
  });
});

describe('a poll in a message', () => {
  it('votes and unvotes, follows the votes of others live, takes comments and options, and ends for its creator only', async () => {
    const creator = await otherUser(backend.server.url, 'alice');
    const channel = creator.channel('messaging', 'general');
    await channel.watch();
    const question = `Tea or coffee? ${Date.now()}`;
    const poll = await creator.polls.createPoll({
      name: question,
      options: [{ text: 'Tea' }, { text: 'Coffee' }],
      enforce_unique_vote: false,
      allow_answers: true,
      allow_user_suggested_options: true,
    });
    const { message } = await channel.sendMessage({ poll_id: poll?.id });

    const { el } = await openWidget(backend.server.url, 'alice');
    const card = await pollCard(el, question);
    expect(card.querySelector('.poll-rule')?.textContent).toBe('Choose any');
    fireEvent.click(option(card, 'Tea'));
    await waitFor(() => expect([option(card, 'Tea').getAttribute('aria-pressed'), countOf(card, 'Tea')]).toEqual(['true', '1']));
    fireEvent.click(option(card, 'Coffee'));
    await waitFor(() => expect(countOf(card, 'Coffee')).toBe('1'));
    fireEvent.click(option(card, 'Tea'));
    await waitFor(() => expect([option(card, 'Tea').getAttribute('aria-pressed'), countOf(card, 'Tea')]).toEqual(['false', '0']));

    const bob = await otherUser(backend.server.url, 'bob');
    await bob.channel('messaging', 'general').watch();
    const coffee = poll?.data.options.find((o) => o.text === 'Coffee');
    await bob.castPollVote(message.id, poll?.id as string, { option_id: coffee?.id as string });
    await waitFor(() => expect(countOf(card, 'Coffee')).toBe('2'));
    expect(card.querySelector('.poll-foot')?.textContent).toMatch(/^2 votes/);
    // Only the creator may end it: Bob's panel would not offer it (checked through Alice's).
    expect(card.querySelector('[part~="close-poll-button"]')).not.toBeNull();

    const comment = card.querySelector('input[placeholder="Add a comment"]') as HTMLInputElement;
    await fill(comment, 'Coffee, always');
    fireEvent.submit(comment.closest('form') as HTMLFormElement);
    await waitFor(() => expect(card.querySelector('.poll-answer')?.textContent).toBe('You Coffee, always'));
    const suggestion = card.querySelector('input[placeholder="Suggest an option"]') as HTMLInputElement;
    await fill(suggestion, 'Juice');
    fireEvent.submit(suggestion.closest('form') as HTMLFormElement);
    await waitFor(() => expect(option(card, 'Juice')).toBeDefined());

    fireEvent.click(card.querySelector('[part~="close-poll-button"]') as HTMLElement);
    await waitFor(() => expect(card.querySelector('.poll-rule')?.textContent).toBe('Voting has ended'));
    expect(option(card, 'Tea').disabled).toBe(true);
    expect(card.querySelector('[part~="close-poll-button"]')).toBeNull();
    expect(card.querySelector('input[placeholder="Add a comment"]')).toBeNull();

    // A panel that missed the close (stale) still gets the backend's refusal, in words.
    clientOf(el).polls.fromState(poll?.id as string)?.state.partialNext({ is_closed: false });
    await waitFor(() => expect(option(card, 'Tea').disabled).toBe(false));
    fireEvent.click(option(card, 'Tea'));
    await waitFor(() => expect(card.querySelector('[role="alert"]')?.textContent).toBe('That did not work: poll is closed.'));
    expect(countOf(card, 'Tea')).toBe('0');
    await bob.disconnectUser();
    await creator.disconnectUser();
  });
});
