// Poll rows → the SDK's PollResponse and PollVote. Everything but own_votes is the same for
// every viewer, so a PollView computes it once and personalises per viewer (one small query
// each): events fan out to a whole channel with one stats query.
//
// Anonymous polls hide voters: votes carry no user or user_id, except a viewer's own (the SDK
// recognises its own votes by user_id), and latest_votes_by_option stays empty.
import type { PollAnswer, PollOption, PollResponse, PollVote, VotingVisibility } from 'stream-chat';
import type { UserPresenter } from './users';
import type { PollRow, PollVoteRow } from '../store/polls';
import type { Store } from '../store/store';

export type PollView = {
  row: PollRow;
  /** The poll as `viewerId` sees it (own_votes, and own votes not anonymised). */
  forViewer(viewerId: string | null): PollResponse;
  vote(vote: PollVoteRow, viewerId: string | null): PollVote | PollAnswer;
};

export function pollView(presenter: UserPresenter, store: Store, row: PollRow): PollView {
  const options = store.polls.options(row.id);
  const stats = store.polls.stats(row.id);
  const anonymous = row.voting_visibility === 'anonymous';
  presenter.preloadUsers([
    row.created_by_id,
    ...(anonymous ? [] : [...stats.latestByOption.values()].flat().map((v) => v.user_id)),
    ...(anonymous ? [] : stats.latestAnswers.map((v) => v.user_id)),
  ]);

  const vote = (v: PollVoteRow, viewerId: string | null) => presentVote(presenter, v, !anonymous || v.user_id === viewerId);
  const counts: Record<string, number> = {};
  let voteCount = 0;
  for (const option of options) {
    const n = stats.countsByOption.get(option.id) ?? 0;
    counts[option.id] = n;
    voteCount += n;
  }
  const presentedOptions: PollOption[] = options.map((option) => ({
    ...(JSON.parse(option.custom) as Record<string, unknown>),
    id: option.id,
    poll_id: row.id,
    text: option.text,
    vote_count: counts[option.id] ?? 0,
    created_at: option.created_at,
    updated_at: option.updated_at,
  }));
  const latestByOption: Record<string, PollVote[]> = {};
  if (!anonymous) {
    for (const [optionId, votes] of stats.latestByOption) latestByOption[optionId] = votes.map((v) => vote(v, null));
  }
  const shared: Omit<PollResponse, 'own_votes' | 'latest_answers'> = {
    ...(JSON.parse(row.custom) as Record<string, unknown>),
    id: row.id,
    name: row.name,
    description: row.description,
    voting_visibility: row.voting_visibility as VotingVisibility,
    enforce_unique_vote: row.enforce_unique_vote === 1,
    // The provider sends null for "no limit" (the SDK's type says number; its checks read it
    // as falsy, which is what keeps a unique-vote poll's vote changeable).
    max_votes_allowed: row.max_votes_allowed as number,
    allow_answers: row.allow_answers === 1,
    allow_user_suggested_options: row.allow_user_suggested_options === 1,
    is_closed: row.is_closed === 1,
    options: presentedOptions,
    vote_counts_by_option: counts,
    vote_count: voteCount,
    answers_count: stats.answers,
    latest_votes_by_option: latestByOption,
    created_by_id: row.created_by_id,
    created_by: presenter.user(row.created_by_id),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };

  return {
    row,
    vote,
    forViewer(viewerId) {
      return {
        ...shared,
        latest_answers: stats.latestAnswers.map((v) => vote(v, viewerId) as PollAnswer),
        own_votes: viewerId ? store.polls.votesOf(row.id, viewerId).map((v) => vote(v, viewerId)) : [],
      };
    },
  };
}

export function presentVote(presenter: UserPresenter, row: PollVoteRow, showVoter: boolean): PollVote | PollAnswer {
  const base: PollVote = {
    id: row.id,
    poll_id: row.poll_id,
    ...(row.option_id ? { option_id: row.option_id } : {}),
    ...(showVoter ? { user_id: row.user_id, user: presenter.user(row.user_id) } : {}),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
  if (row.answer_text === null) return base;
  return { ...base, answer_text: row.answer_text, is_answer: true };
}

/** Polls for a page of messages, keyed by poll id, as `viewerId` sees them. */
export function pollsOf(
  presenter: UserPresenter,
  store: Store,
  pollIds: string[],
  viewerId: string | null,
): Map<string, PollResponse> {
  const polls = new Map<string, PollResponse>();
  for (const row of store.polls.getMany(pollIds).values()) {
    polls.set(row.id, pollView(presenter, store, row).forViewer(viewerId));
  }
  return polls;
}
