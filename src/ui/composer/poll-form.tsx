import { useId, useState } from 'react';
import type { MessageComposer, PollComposerState } from 'stream-chat';
import { VotingVisibility } from 'stream-chat';
import { errorDetail } from '../../session/session-error';
import { useStateStore } from '../../session/use-state-store';
import { Field, Sheet } from './sheet';
import type { MessageKey } from '../../i18n/en';
import { text, type Text } from '../../i18n/translate';
import { useSay, useT } from '../common/localization';
import { sdkText } from './notifications';

const selectPoll = (state: PollComposerState) => ({ data: state.data, errors: state.errors });

interface PollFormProps {
  composer: MessageComposer;
  onClose: () => void;
  /** Sends the poll message once the poll exists. */
  onCreated: () => Promise<void>;
}

/**
 * The SDK's poll composer as a form: every field writes through `updateFields` and is checked
 * on blur by `handleFieldBlur`, and every text it reports ('Question is required', 'Option
 * already exists', 'Type a number from 2 to 10', …) shows under its field. Create is enabled
 * exactly when the poll composer says a poll can be created.
 */
export function PollForm({ composer, onClose, onCreated }: PollFormProps) {
  const { pollComposer } = composer;
  const { data, errors } = useStateStore(pollComposer.state, selectPoll);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<Text | null>(null);
  const t = useT();
  const say = useSay();
  // The poll composer's checks are the SDK's English sentences.
  const sdk = (error: string | undefined) => (error ? sdkText(t, error) : undefined);
  const id = useId();
  const update = (fields: Parameters<typeof pollComposer.updateFields>[0]) => void pollComposer.updateFields(fields);
  const blur = (field: keyof PollComposerState['data']) => () => void pollComposer.handleFieldBlur(field);
  const invalid = (error: string | undefined, field: string) =>
    error ? { 'aria-invalid': true, 'aria-describedby': `${id}-${field}-error` } : {};

  const create = async () => {
    if (busy || !pollComposer.canCreatePoll) return;
    setBusy(true);
    setFailure(null);
    try {
      await composer.createPoll();
    } catch (error) {
      setBusy(false);
      setFailure(text('poll.notCreated', { why: errorDetail(error) }));
      return;
    }
    setBusy(false);
    if (!composer.pollId) return;
    onClose();
    await onCreated();
  };

  const checkbox = (field: 'enforce_unique_vote' | 'allow_answers' | 'allow_user_suggested_options', label: MessageKey) => (
    <label className="check">
      <input type="checkbox" checked={Boolean(data[field])} onChange={(event) => update({ [field]: event.currentTarget.checked })} />
      {t(label)}
    </label>
  );

  return (
    <Sheet
      title={t('poll.new')}
      part="poll-form"
      onClose={onClose}
      onSubmit={() => void create()}
      footer={
        <>
          <button type="button" className="button secondary" onClick={onClose}>
            {t('new.cancel')}
          </button>
          <button type="submit" className="button" part="create-poll-button" disabled={busy || !pollComposer.canCreatePoll}>
            {t(busy ? 'poll.creating' : 'poll.create')}
          </button>
        </>
      }
    >
      <Field id={`${id}-name`} label={t('poll.question')} error={sdk(errors.name)}>
        <input
          id={`${id}-name`}
          className="text-field"
          value={data.name}
          placeholder={t('poll.questionPlaceholder')}
          {...invalid(errors.name, 'name')}
          onInput={(event) => update({ name: event.currentTarget.value })}
          onBlur={blur('name')}
        />
      </Field>
      <Field id={`${id}-description`} label={t('poll.description')}>
        <input
          id={`${id}-description`}
          className="text-field"
          value={data.description ?? ''}
          onInput={(event) => update({ description: event.currentTarget.value })}
        />
      </Field>
      <fieldset className="field">
        <legend className="field-label">{t('poll.options')}</legend>
        {data.options.map((option, index) => {
          const error = errors.options?.[option.id];
          return (
            <div key={option.id} className="poll-option-field">
              <input
                id={`${id}-option-${option.id}`}
                className="text-field"
                value={option.text}
                aria-label={t('poll.option', { number: index + 1 })}
                placeholder={index === data.options.length - 1 ? t('poll.addOption') : ''}
                {...invalid(error, `option-${option.id}`)}
                onInput={(event) => update({ options: { index, text: event.currentTarget.value } })}
                onBlur={blur('options')}
              />
              {error && (
                <p className="field-error" id={`${id}-option-${option.id}-error`} role="alert">
                  {sdk(error)}
                </p>
              )}
            </div>
          );
        })}
      </fieldset>
      <div className="field">
        {checkbox('enforce_unique_vote', 'poll.uniqueVote')}
      </div>
      <Field id={`${id}-max`} label={t('poll.maxVotes')} error={sdk(errors.max_votes_allowed)}>
        <input
          id={`${id}-max`}
          className="text-field narrow"
          inputMode="numeric"
          value={data.max_votes_allowed}
          {...invalid(errors.max_votes_allowed, 'max')}
          onInput={(event) => update({ max_votes_allowed: event.currentTarget.value })}
          onBlur={blur('max_votes_allowed')}
        />
      </Field>
      <div className="field">
        {checkbox('allow_answers', 'poll.allowAnswers')}
        {checkbox('allow_user_suggested_options', 'poll.allowSuggestions')}
      </div>
      <fieldset className="field">
        <legend className="field-label">{t('poll.visibility')}</legend>
        {[
          [VotingVisibility.public, 'poll.public'],
          [VotingVisibility.anonymous, 'poll.anonymous'],
        ].map(([value, label]) => (
          <label key={value} className="check">
            <input
              type="radio"
              name={`${id}-visibility`}
              checked={data.voting_visibility === value}
              onChange={() => update({ voting_visibility: value as VotingVisibility })}
            />
            {t(label as MessageKey)}
          </label>
        ))}
      </fieldset>
      {failure && (
        <p className="field-error" role="alert">
          {say(failure)}
        </p>
      )}
    </Sheet>
  );
}
