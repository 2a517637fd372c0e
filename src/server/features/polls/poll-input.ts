// Validation of poll input, the same rules as the SDK's PollComposer (spec §5) enforced again for
// clients that call the API directly: a name, at most 100 options, none blank or repeated,
// max_votes_allowed a whole number from 2 to 10 and never together with enforce_unique_vote.
import { ApiError } from '../../http/errors';
import { isObject, optionalBoolean, optionalString, withoutKeys, type JsonObject } from '../../http/input';
import type { PollFields, PollRow } from '../../store/polls';

export const MAX_OPTIONS = 100;
const MAX_VOTES = { min: 2, max: 10 };
const MAX_ID = 255;
const MAX_TEXT = 1000;

/** PollData keys that are columns, not custom data. */
const POLL_KEYS = new Set([
  'id', 'name', 'description', 'voting_visibility', 'enforce_unique_vote', 'max_votes_allowed', 'allow_answers',
  'allow_user_suggested_options', 'is_closed', 'options', 'user_id', 'user', 'created_by', 'created_by_id',
  'created_at', 'updated_at', 'vote_count', 'vote_counts_by_option', 'latest_votes_by_option', 'latest_answers',
  'own_votes', 'answers_count', 'message_id', 'cid', 'duration',
]);
const OPTION_KEYS = new Set(['id', 'text', 'position', 'poll_id', 'vote_count', 'votes', 'created_at', 'updated_at', 'user_id']);

export type OptionInput = { id?: string; text: string; custom: JsonObject };

export const DEFAULT_FIELDS: PollFields = {
  name: '',
  description: '',
  voting_visibility: 'public',
  enforce_unique_vote: 0,
  max_votes_allowed: null,
  allow_answers: 0,
  allow_user_suggested_options: 0,
  is_closed: 0,
  custom: '{}',
};

/** Applies `set` on top of `base` and `unset` (back to defaults), then checks the result. */
export function pollFields(base: PollFields, set: JsonObject, unset: string[] = []): PollFields {
  const fields: PollFields = { ...base };
  const custom = JSON.parse(base.custom) as JsonObject;
  for (const key of unset) {
    if (key in DEFAULT_FIELDS && key !== 'custom') Object.assign(fields, { [key]: DEFAULT_FIELDS[key as keyof PollFields] });
    else delete custom[key];
  }
  if (set.name !== undefined) fields.name = optionalString(set.name, 'name')?.trim() ?? '';
  if (set.description !== undefined) fields.description = optionalString(set.description, 'description') ?? '';
  if (set.voting_visibility !== undefined) fields.voting_visibility = visibility(set.voting_visibility);
  for (const key of ['enforce_unique_vote', 'allow_answers', 'allow_user_suggested_options', 'is_closed'] as const) {
    if (set[key] !== undefined) fields[key] = optionalBoolean(set[key], key) ? 1 : 0;
  }
  if (set.max_votes_allowed !== undefined) fields.max_votes_allowed = maxVotes(set.max_votes_allowed);
  fields.custom = JSON.stringify({ ...custom, ...withoutKeys(set, POLL_KEYS) });

  if (!fields.name) throw ApiError.input('name is a required field: a poll needs a question');
  if (fields.name.length > MAX_TEXT) throw ApiError.input(`name is longer than ${MAX_TEXT} characters`);
  if (fields.enforce_unique_vote && fields.max_votes_allowed !== null) {
    throw ApiError.input('max_votes_allowed cannot be set when enforce_unique_vote is enabled');
  }
  return fields;
}

export function currentFields(row: PollRow): PollFields {
  const { name, description, voting_visibility, enforce_unique_vote, max_votes_allowed, allow_answers } = row;
  const { allow_user_suggested_options, is_closed, custom } = row;
  return {
    name, description, voting_visibility, enforce_unique_vote, max_votes_allowed, allow_answers,
    allow_user_suggested_options, is_closed, custom,
  };
}

export function pollId(value: unknown): string | undefined {
  const id = optionalString(value, 'id');
  if (id !== undefined && (!id || id.length > MAX_ID)) throw ApiError.input(`id must be 1 to ${MAX_ID} characters`);
  return id;
}

/** The options of a create or full update: each with text, unique, at most 100. */
export function optionList(value: unknown): OptionInput[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw ApiError.input('options must be a list');
  if (value.length > MAX_OPTIONS) throw ApiError.input(`a poll can have at most ${MAX_OPTIONS} options, not ${value.length}`);
  const options = value.map((item, i) => optionInput(item, `options[${i}]`));
  assertUniqueTexts(options.map((o) => o.text));
  return options;
}

export function optionInput(value: unknown, name = 'option'): OptionInput {
  if (!isObject(value)) throw ApiError.input(`${name} must be an object with text`);
  const text = optionalString(value.text, `${name}.text`)?.trim() ?? '';
  if (!text) throw ApiError.input(`${name}.text is empty: an option needs text`);
  if (text.length > MAX_TEXT) throw ApiError.input(`${name}.text is longer than ${MAX_TEXT} characters`);
  const id = optionalString(value.id, `${name}.id`);
  if (id !== undefined && (!id || id.length > MAX_ID)) throw ApiError.input(`${name}.id must be 1 to ${MAX_ID} characters`);
  return { ...(id ? { id } : {}), text, custom: withoutKeys(value, OPTION_KEYS) };
}

export function assertUniqueTexts(texts: string[]): void {
  const seen = new Set<string>();
  for (const text of texts) {
    if (seen.has(text)) throw ApiError.input(`option "${text}" already exists`);
    seen.add(text);
  }
}

function visibility(value: unknown): string {
  if (value === 'public' || value === 'anonymous') return value;
  throw ApiError.input('voting_visibility must be "public" or "anonymous"');
}

function maxVotes(value: unknown): number | null {
  if (value === null) return null;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < MAX_VOTES.min || value > MAX_VOTES.max) {
    throw ApiError.input(`max_votes_allowed must be a whole number from ${MAX_VOTES.min} to ${MAX_VOTES.max}`);
  }
  return value;
}
