import { useEffect, useRef, type KeyboardEvent } from 'react';
import type { TextComposerState } from 'stream-chat';
import type { ChannelHandle, SendResult } from '../session/channel-handle';
import { useStateStore } from '../session/use-state-store';
import { SendIcon } from './icons';

const selectText = (state: TextComposerState) => ({ text: state.text });

interface ComposerProps {
  handle: ChannelHandle;
  disabled: boolean;
  onSendResult: (result: SendResult) => void;
}

/**
 * The text box over the channel's `messageComposer`: the SDK owns the text and decides
 * what is sendable; this only renders its state and forwards input. Enter sends,
 * Shift+Enter adds a line.
 */
export function Composer({ handle, disabled, onSendResult }: ComposerProps) {
  const composer = handle.channel.messageComposer;
  const { text } = useStateStore(composer.textComposer.state, selectText);
  const textarea = useRef<HTMLTextAreaElement>(null);

  useEffect(() => composer.registerSubscriptions(), [composer]);

  const submit = async () => {
    const result = await handle.send();
    textarea.current?.focus();
    onSendResult(result);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    // While an input method is composing (CJK), Enter confirms the candidate, not the message.
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    void submit();
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
      <textarea
        ref={textarea}
        className="composer-input"
        part="composer-input"
        rows={1}
        placeholder="Write a message…"
        aria-label="Message"
        value={text}
        disabled={disabled}
        onChange={(event) =>
          void composer.textComposer.handleChange({
            text: event.currentTarget.value,
            selection: { start: event.currentTarget.selectionStart, end: event.currentTarget.selectionEnd },
          })
        }
        onKeyDown={onKeyDown}
      />
      <button
        type="submit"
        className="send-button"
        part="send-button"
        aria-label="Send"
        disabled={disabled || !text.trim()}
      >
        <SendIcon />
      </button>
    </form>
  );
}
