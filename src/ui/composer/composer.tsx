import { useEffect, useId, useRef, type KeyboardEvent } from 'react';
import type { MessageComposer, MessageComposerConfig, MessageComposerState, TextComposerState } from 'stream-chat';
import type { SendResult } from '../../session/channel-handle';
import { useStateStore } from '../../session/use-state-store';
import { displayName } from '../format';
import { CloseIcon, SendIcon } from '../icons';
import { SuggestionList } from './suggestion-list';
import { useSuggestions } from './use-suggestions';

const selectText = (state: TextComposerState) => ({ text: state.text });
const selectLimit = (config: MessageComposerConfig) => ({ max: config.text.maxLengthOnSend });
// The counter appears when this few characters are left.
const COUNTER_FROM_REMAINING = 200;

const selectComposer = (state: MessageComposerState) => ({
  quoted: state.quotedMessage,
  editing: state.editedMessage,
  showReplyInChannel: state.showReplyInChannel,
});

interface ComposerProps {
  composer: MessageComposer;
  disabled: boolean;
  send: () => Promise<SendResult>;
  onSendResult: (result: SendResult) => void;
  /** In a thread: offer "Also send to channel". */
  inThread?: boolean;
}

/**
 * The text box over a `MessageComposer` (a channel's or a thread's): the SDK owns the text,
 * the quote and the message being edited, and decides what is sendable; this renders its
 * state and forwards input. Enter sends, Shift+Enter adds a line, Esc cancels an edit.
 */
export function Composer({ composer, disabled, send, onSendResult, inThread = false }: ComposerProps) {
  const { text } = useStateStore(composer.textComposer.state, selectText);
  const { quoted, editing, showReplyInChannel } = useStateStore(composer.state, selectComposer);
  const { max } = useStateStore(composer.configState, selectLimit);
  const textarea = useRef<HTMLTextAreaElement>(null);
  const listId = useId();
  const suggestions = useSuggestions(composer.textComposer);
  const remaining = typeof max === 'number' ? max - text.length : null;
  const tooLong = remaining !== null && remaining < 0;

  useEffect(() => composer.registerSubscriptions(), [composer]);
  useEffect(() => {
    if (editing || quoted) textarea.current?.focus();
  }, [editing, quoted]);

  const submit = async () => {
    // The text store updates through async middleware: a fast Enter can arrive before the
    // last keystroke is committed, so hand the SDK what the box shows before composing.
    const box = textarea.current;
    if (box && box.value !== composer.textComposer.text) {
      await composer.textComposer.handleChange({ text: box.value, selection: { start: box.selectionStart, end: box.selectionEnd } });
    }
    const result = await send();
    textarea.current?.focus();
    onSendResult(result);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (suggestions.onKeyDown(event)) return;
    if (event.key === 'Escape' && editing) {
      event.preventDefault();
      event.stopPropagation();
      composer.clear();
      return;
    }
    // While an input method is composing (CJK), Enter confirms the candidate, not the message.
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    if (!tooLong) void submit();
  };

  return (
    <form
      className="composer"
      part="composer"
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      {(editing || quoted) && (
        <div className="composer-context" part="composer-context">
          <span className="composer-context-text">
            {editing ? (
              <>Editing your message · Esc to cancel</>
            ) : (
              <>
                Quoting <strong>{displayName(quoted?.user)}</strong>: {quoted?.text}
              </>
            )}
          </span>
          <button
            type="button"
            className="icon-button small"
            aria-label={editing ? 'Cancel editing' : 'Remove quote'}
            onClick={() => (editing ? composer.clear() : composer.setQuotedMessage(null))}
          >
            <CloseIcon />
          </button>
        </div>
      )}
      {suggestions.active && <SuggestionList active={suggestions.active} listId={listId} />}
      <div className="composer-row">
        <textarea
          ref={textarea}
          className="composer-input"
          part="composer-input"
          rows={1}
          placeholder={inThread ? 'Reply in thread…' : 'Write a message…'}
          aria-label={inThread ? 'Reply' : 'Message'}
          value={text}
          disabled={disabled}
          role="combobox"
          aria-autocomplete="list"
          aria-expanded={Boolean(suggestions.active)}
          aria-controls={suggestions.active ? listId : undefined}
          aria-activedescendant={suggestions.activeOptionId(listId)}
          aria-invalid={tooLong}
          onChange={(event) =>
            void composer.textComposer.handleChange({
              text: event.currentTarget.value,
              selection: { start: event.currentTarget.selectionStart, end: event.currentTarget.selectionEnd },
            })
          }
          onKeyDown={onKeyDown}
        />
        <button type="submit" className="send-button" part="send-button" aria-label={editing ? 'Save' : 'Send'} disabled={disabled || !text.trim() || tooLong}>
          <SendIcon />
        </button>
      </div>
      {remaining !== null && remaining <= COUNTER_FROM_REMAINING && (
        <p className={`char-counter${tooLong ? ' over' : ''}`} part="char-counter" aria-live="polite">
          {tooLong ? `${-remaining} characters over the limit of ${max}` : `${remaining} characters left`}
        </p>
      )}
      {inThread && (
        <label className="reply-in-channel">
          <input type="checkbox" checked={showReplyInChannel} onChange={() => composer.toggleShowReplyInChannel()} /> Also send to channel
        </label>
      )}
    </form>
  );
}
