import { useEffect, useState, type FormEvent } from 'react';
import type { Poll, PollAnswer, PollState } from 'stream-chat';
import { errorDetail } from '../../session/session-error';
import { useStateStore } from '../../session/use-state-store';
import { useChatClient } from '../common/chat-client';
import { displayName } from '../common/format';
import { PollIcon } from '../common/icons';
import { text, type Text } from '../../i18n/translate';
import { useSay, useT } from '../common/localization';

const selectPoll = (s: PollState) => ({
  name: s.name,
  description: s.description,
  options: s.options,
  counts: s.vote_counts_by_option,
  voteCount: s.vote_count,
  own: s.ownVotesByOptionId,
  ownAnswer: s.ownAnswer,
  answers: s.latest_answers as PollAnswer[] | undefined,
  closed: s.is_closed,
  unique: s.enforce_unique_vote,
  max: s.max_votes_allowed,
  allowAnswers: s.allow_answers,
  allowSuggestions: s.allow_user_suggested_options,
  anonymous: s.voting_visibility === 'anonymous',
  createdBy: s.created_by_id,
});

interface PollProps {
  messageId: string;
  pollId: string;
  /** The channel lets this user vote (`cast-poll-vote`). */
  canVote: boolean;
}

/** The poll a message carries, from the SDK's poll manager (fetched once if it is not cached yet). */
export function MessagePoll({ messageId, pollId, canVote }: PollProps) {
  const client = useChatClient();
  const [poll, setPoll] = useState<Poll | undefined>(() => client?.polls.fromState(pollId));
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    if (poll || !client) return;
    client.polls.getPoll(pollId).then((found) => (found ? setPoll(found) : setFailed(true)), () => setFailed(true));
  }, [client, poll, pollId]);
  const t = useT();
  if (!poll || !client) {
    return <div className="poll-card poll-status">{t(failed ? 'poll.loadFailed' : 'poll.loading')}</div>;
  }
  return <PollCard poll={poll} messageId={messageId} ownUserId={client.userID ?? null} canVote={canVote} />;
}

/** A one-line form: comment on the poll, or suggest an option. */
function AddText({ label, action, onAdd }: { label: string; action: string; onAdd: (text: string) => Promise<unknown> }) {
  const [text, setText] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const value = text.trim();
    if (!value) return;
    void onAdd(value).then(() => setText(''), () => undefined);
  };
  return (
    <form className="poll-add" onSubmit={submit}>
      <input className="text-field" aria-label={label} placeholder={label} value={text} maxLength={255} onInput={(event) => setText(event.currentTarget.value)} />
      <button type="submit" className="button secondary small" disabled={!text.trim()}>
        {action}
      </button>
    </form>
  );
}

function PollCard({ poll, messageId, ownUserId, canVote }: { poll: Poll; messageId: string; ownUserId: string | null; canVote: boolean }) {
  const s = useStateStore(poll.state, selectPoll);
  const [error, setError] = useState<Text | null>(null);
  const t = useT();
  const say = useSay();
  const run = (work: () => Promise<unknown>) => {
    setError(null);
    return work().catch((failure: unknown) => {
      setError(text('poll.failed', { why: errorDetail(failure) }));
      throw failure;
    });
  };
  const quietly = (work: () => Promise<unknown>) => void run(work).catch(() => undefined);
  const open = !s.closed;
  const total = Object.values(s.counts ?? {}).reduce((sum, n) => sum + n, 0);
  const rule = s.closed ? t('poll.ended') : s.unique ? t('poll.chooseOne') : s.max ? t('poll.chooseUpTo', { count: s.max }) : t('poll.chooseAny');

  return (
    <div className="poll-card" part="poll" aria-label={t('poll.label', { name: s.name })}>
      <div className="poll-head">
        <PollIcon />
        <span className="poll-name">{s.name}</span>
      </div>
      {s.description && <p className="poll-description">{s.description}</p>}
      <p className="poll-rule">
        {rule}
        {s.anonymous ? t('poll.anonymousNote') : ''}
      </p>
      <ul className="poll-options">
        {s.options.map((option) => {
          const count = s.counts?.[option.id] ?? 0;
          const vote = s.own[option.id];
          const share = total ? Math.round((count / total) * 100) : 0;
          return (
            <li key={option.id}>
              <button
                type="button"
                className="poll-option"
                part="poll-option"
                aria-pressed={Boolean(vote)}
                disabled={!open || !canVote}
                onClick={() => quietly(() => (vote ? poll.removeVote(vote.id, messageId) : poll.castVote(option.id, messageId)))}
              >
                <span className="poll-check" aria-hidden="true">
                  {vote ? '✓' : ''}
                </span>
                <span className="poll-option-text">{option.text}</span>
                <span className="poll-count">{count}</span>
                <span className="poll-bar" aria-hidden="true" style={{ width: `${share}%` }} />
              </button>
            </li>
          );
        })}
      </ul>
      {open && s.allowSuggestions && canVote && (
        <AddText label={t('poll.suggest')} action={t('poll.add')} onAdd={(text) => run(() => poll.createOption({ text }))} />
      )}
      {s.allowAnswers && (
        <div className="poll-answers">
          {(s.answers ?? []).slice(0, 3).map((answer) => (
            <p key={answer.id} className="poll-answer">
              <strong>{answer.user_id === ownUserId ? t('message.you') : displayName(answer.user)}</strong> {answer.answer_text}
            </p>
          ))}
          {open && canVote && (
            <AddText label={t(s.ownAnswer ? 'poll.changeComment' : 'poll.addComment')} action={t('poll.send')} onAdd={(text) => run(() => poll.addAnswer(text, messageId))} />
          )}
        </div>
      )}
      <div className="poll-foot">
        <span>
          {t('poll.votes', { count: s.voteCount ?? total })}
          {s.closed ? t('poll.closedNote') : ''}
        </span>
        {open && s.createdBy === ownUserId && (
          <button type="button" className="link-button" part="close-poll-button" onClick={() => quietly(() => poll.close())}>
            {t('poll.end')}
          </button>
        )}
      </div>
      {error && (
        <p className="field-error" role="alert">
          {say(error)}
        </p>
      )}
    </div>
  );
}
