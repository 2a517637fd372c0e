import { useCallback, useEffect, useId, useLayoutEffect, useRef, useState, useSyncExternalStore, type ClipboardEvent, type KeyboardEvent, type RefObject } from 'react';
import type { AttachmentManagerState, MessageComposer, MessageComposerState, TextComposerState } from 'stream-chat';
import { text } from '../../i18n/translate';
import type { SendResult } from '../../session/channel-handle';
import { useStateStore } from '../../session/use-state-store';
import { displayName } from '../common/format';
import { CloseIcon, SendIcon } from '../common/icons';
import { useT } from '../common/localization';
import { addFiles, notifyText, useFileDrop } from './attachment-input';
import { AttachmentPreviews } from './attachment-previews';
import { ComposerMenu, type ComposerTool } from './composer-menu';
import { LinkPreviews } from './link-previews';
import { Notifications } from './notifications';
import { canRecord, RecordButton } from './record-button';
import { loadRecorder, type RecorderPart } from './recorder-loader';
import type { Hold } from './recorder/voice-recorder';
import { loadSheets, type SheetsPart } from './sheets-loader';
import { SuggestionList } from './suggestion-list';
import { useSuggestions } from './use-suggestions';

const selectText = (state: TextComposerState) => ({ text: state.text });
const selectCommand = (state: TextComposerState) => ({ command: state.command });
// The counter appears when this few characters are left.
const COUNTER_FROM_REMAINING = 200;

/**
 * `derive(composer)`, computed afresh on every render, and a re-render when a change of the
 * text or of the limit changes its value: the send button and the counter follow what they
 * show (sendable or not, characters left near the limit), not every keystroke. React's own
 * external-store hook, with one snapshot for both stores: a value changed by one store and
 * changed back by the other is never mistaken for no change.
 */
function useFromText<T>(composer: MessageComposer, derive: (composer: MessageComposer) => T): T {
  const subscribe = useCallback(
    (changed: () => void) => {
      const unsubscribeText = composer.textComposer.state.subscribe(changed);
      const unsubscribeConfig = composer.configState.subscribe(changed);
      return () => {
        unsubscribeText();
        unsubscribeConfig();
      };
    },
    [composer],
  );
  return useSyncExternalStore(subscribe, () => derive(composer));
}

/** Characters left (negative: over), or null with no limit. */
function remainingOf(composer: MessageComposer): number | null {
  const max = composer.configState.getLatestValue().text.maxLengthOnSend;
  return typeof max === 'number' ? max - composer.textComposer.text.length : null;
}

// Uploads in flight still allow a try: the SDK then answers 'Wait until all attachments have uploaded'.
const sendableOf = (composer: MessageComposer) =>
  !isTooLong(composer) && (composer.hasSendableData || composer.attachmentManager.uploadsInProgressCount > 0);
const counterOf = (composer: MessageComposer) => {
  const remaining = remainingOf(composer);
  return remaining !== null && remaining <= COUNTER_FROM_REMAINING ? remaining : null;
};

const isEmpty = (composer: MessageComposer) => !composer.textComposer.text;

/** Whether the text is over the limit now. */
function isTooLong(composer: MessageComposer): boolean {
  const remaining = remainingOf(composer);
  return remaining !== null && remaining < 0;
}

const selectComposer = (state: MessageComposerState) => ({
  quoted: state.quotedMessage,
  editing: state.editedMessage,
  showReplyInChannel: state.showReplyInChannel,
  pollId: state.pollId,
});
const selectAttachments = (state: AttachmentManagerState) => ({ attachments: state.attachments });

interface ComposerProps {
  composer: MessageComposer;
  disabled: boolean;
  send: () => Promise<SendResult>;
  onSendResult: (result: SendResult) => void;
  /** In a thread: offer "Also send to channel". */
  inThread?: boolean;
  /** Takes the focus when it appears (a thread opened from a message's menu). */
  autoFocus?: boolean;
}

/**
 * The text box over a `MessageComposer` (a channel's or a thread's): the SDK owns the text,
 * the quote and the message being edited, and decides what is sendable; this renders its
 * state and forwards input. Enter sends, Shift+Enter adds a line, Esc cancels an edit.
 */
export function Composer({ composer, disabled, send, onSendResult, inThread = false, autoFocus = false }: ComposerProps) {
  const { command } = useStateStore(composer.textComposer.state, selectCommand);
  const { quoted, editing, showReplyInChannel } = useStateStore(composer.state, selectComposer);
  // Read for what they change in the SDK's sendability (hasSendableData), below.
  useStateStore(composer.attachmentManager.state, selectAttachments);
  const [sheet, setSheet] = useState<'poll' | 'location' | null>(null);
  const [sheets, setSheets] = useState<SheetsPart | null>(null);
  const t = useT();
  const form = useRef<HTMLFormElement>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const textarea = useRef<HTMLTextAreaElement>(null);
  const listId = useId();
  const suggestions = useSuggestions(composer.textComposer);
  const { attachmentManager } = composer;
  const capabilities = (composer.channel.data?.own_capabilities as string[] | undefined) ?? [];
  // Polls and locations are whole messages of their own: never in a thread or an edit.
  const standalone = !inThread && !editing;
  const tools: ComposerTool[] = [];
  if (attachmentManager.hasUploadPermission) tools.push('files');
  if (standalone && capabilities.includes('send-poll') && composer.channel.getConfig()?.polls) tools.push('poll');
  if (standalone && composer.config.location.enabled) tools.push('location');
  const dragging = useFileDrop(form, !disabled && tools.includes('files'), (files) => addFiles(composer, files));
  // A voice message is a message of its own, like a file: not in an edit, nor with a command.
  const recordable = tools.includes('files') && !editing && !command && canRecord();
  const [voice, setVoice] = useState<{ Recorder: RecorderPart['VoiceRecorder']; hold?: Hold } | null>(null);
  // The recorder's first use fetches it: the microphone shows it is on its way.
  const [recorderLoading, setRecorderLoading] = useState(false);
  const recording = useRef(false);

  useEffect(() => composer.registerSubscriptions(), [composer]);
  useEffect(() => {
    if (autoFocus) textarea.current?.focus({ preventScroll: true });
  }, []);
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

  const choose = (tool: ComposerTool) => {
    if (tool === 'files') return fileInput.current?.click();
    loadSheets().then(
      (part) => {
        setSheets(part);
        if (tool === 'poll') composer.pollComposer.initState();
        setSheet(tool);
      },
      () => notifyText(composer, text('panel.partFailed'), 'composer:unavailable'),
    );
  };

  const record = (hold?: Hold) => {
    if (recording.current) return;
    recording.current = true;
    setRecorderLoading(true);
    loadRecorder()
      .then(
        ({ VoiceRecorder }) => setVoice({ Recorder: VoiceRecorder, hold }),
        () => {
          recording.current = false;
          notifyText(composer, text('recorder.unavailable'), 'recorder:unavailable');
        },
      )
      .finally(() => setRecorderLoading(false));
  };

  const endRecording = () => {
    recording.current = false;
    setVoice(null);
    // After the row is back.
    queueMicrotask(() => textarea.current?.focus());
  };

  const closeSheet = () => {
    setSheet(null);
    textarea.current?.focus();
  };

  const onPaste = (event: ClipboardEvent<HTMLTextAreaElement>) => {
    const files = Array.from(event.clipboardData?.files ?? []);
    if (files.length === 0 || !tools.includes('files')) return;
    // Pasted text (say, a copied web page) still goes into the box; a pasted image alone does not.
    if (!event.clipboardData?.types.includes('text/plain')) event.preventDefault();
    addFiles(composer, files);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (suggestions.onKeyDown(event)) return;
    if (event.key === 'Backspace' && command && !event.currentTarget.value) {
      composer.textComposer.clearCommand();
      return;
    }
    if (event.key === 'Escape' && editing) {
      event.preventDefault();
      event.stopPropagation();
      composer.clear();
      return;
    }
    // While an input method is composing (CJK), Enter confirms the candidate, not the message.
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    if (!isTooLong(composer)) void submit();
  };

  return (
    <>
      {sheets && sheet === 'poll' && <sheets.PollForm composer={composer} onClose={closeSheet} onCreated={submit} />}
      {sheets && sheet === 'location' && <sheets.LocationForm composer={composer} onClose={closeSheet} />}
      {dragging && (
        <div className="drop-overlay" part="drop-overlay" aria-hidden="true">
          Drop files to attach them
        </div>
      )}
      <form
        ref={form}
        className="composer"
        part="composer"
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <Notifications client={composer.client} />
        {(editing || quoted) && (
          <div className="composer-context" part="composer-context">
            <span className="composer-context-text">
              {editing ? (
                t('composer.editing')
              ) : (
                t('composer.quoting', { name: displayName(quoted?.user), text: quoted?.text ?? '' })
              )}
            </span>
            <button
              type="button"
              className="icon-button small"
              aria-label={t(editing ? 'composer.cancelEditing' : 'composer.removeQuote')}
              onClick={() => (editing ? composer.clear() : composer.setQuotedMessage(null))}
            >
              <CloseIcon />
            </button>
          </div>
        )}
        <LinkPreviews manager={composer.linkPreviewsManager} />
        <AttachmentPreviews manager={attachmentManager} />
        {suggestions.active && <SuggestionList active={suggestions.active} listId={listId} />}
        <div className="composer-row">
          {voice ? (
            <voice.Recorder composer={composer} hold={voice.hold} onEnd={endRecording} />
          ) : (
            <>
              <ComposerMenu tools={tools} disabled={disabled} onChoose={choose} />
              {tools.includes('files') && (
                <input
                  ref={fileInput}
                  type="file"
                  multiple
                  hidden
                  part="file-input"
                  aria-label={t('composer.attach')}
                  onChange={(event) => {
                    addFiles(composer, Array.from(event.currentTarget.files ?? []));
                    event.currentTarget.value = '';
                  }}
                />
              )}
              {command && (
                // A chosen command lives in the SDK's state, not in the text: show it as a chip.
                <span className="command-chip" part="command-chip">
                  /{command.name}
                  <button type="button" aria-label={t('composer.removeCommand', { name: command.name })} onClick={() => composer.textComposer.clearCommand()}>
                    ×
                  </button>
                </span>
              )}
              <ComposerInput
                composer={composer}
                textarea={textarea}
                placeholder={command ? command.args || command.description || '' : t(inThread ? 'composer.placeholderThread' : 'composer.placeholder')}
                label={t(inThread ? 'composer.labelThread' : 'composer.label')}
                disabled={disabled}
                expanded={Boolean(suggestions.active)}
                controls={suggestions.active ? listId : undefined}
                activeDescendant={suggestions.activeOptionId(listId)}
                onKeyDown={onKeyDown}
                onPaste={onPaste}
              />
              <SendButton composer={composer} disabled={disabled} label={t(editing ? 'composer.save' : 'composer.send')} onRecord={recordable ? record : undefined} recorderLoading={recorderLoading} />
            </>
          )}
        </div>
        <CharCounter composer={composer} />
        {inThread && (
          <label className="reply-in-channel">
            <input type="checkbox" checked={showReplyInChannel} onChange={() => composer.toggleShowReplyInChannel()} /> {t('composer.alsoChannel')}
          </label>
        )}
      </form>
    </>
  );
}

interface ComposerInputProps {
  composer: MessageComposer;
  textarea: RefObject<HTMLTextAreaElement | null>;
  placeholder: string;
  label: string;
  disabled: boolean;
  expanded: boolean;
  controls: string | undefined;
  activeDescendant: string | undefined;
  onKeyDown: (event: KeyboardEvent<HTMLTextAreaElement>) => void;
  onPaste: (event: ClipboardEvent<HTMLTextAreaElement>) => void;
}

/**
 * The text box: a combobox over the suggestion list while one is open. It is not re-rendered
 * for each keystroke: the box already holds what was typed, so the SDK's text is written into it
 * only when the two differ (a send clearing it, a chosen suggestion, a restored draft), and it
 * re-renders only when it turns empty or over the limit.
 *
 * Its placeholder is there only while the box is empty, when it shows: Chromium rewrites a
 * hidden placeholder's inline style on every change of the value, a style recalculation per
 * keystroke for nothing on screen. Set here rather than as a prop: Preact would leave an empty
 * attribute, and with it that work.
 */
function ComposerInput({ composer, textarea, placeholder, label, disabled, expanded, controls, activeDescendant, onKeyDown, onPaste }: ComposerInputProps) {
  const empty = useFromText(composer, isEmpty);
  const tooLong = useFromText(composer, isTooLong);
  useLayoutEffect(
    () =>
      composer.textComposer.state.subscribeWithSelector(selectText, ({ text }) => {
        const box = textarea.current;
        if (box && box.value !== text) box.value = text;
      }),
    [composer],
  );
  useLayoutEffect(() => {
    if (empty) textarea.current?.setAttribute('placeholder', placeholder);
    else textarea.current?.removeAttribute('placeholder');
  }, [empty, placeholder]);
  return (
    <textarea
      ref={textarea}
      className="composer-input"
      dir="auto"
      part="composer-input"
      rows={1}
      aria-label={label}
      disabled={disabled}
      role="combobox"
      aria-autocomplete="list"
      aria-expanded={expanded}
      aria-controls={controls}
      aria-activedescendant={activeDescendant}
      aria-invalid={tooLong}
      onChange={(event) =>
        void composer.textComposer.handleChange({
          text: event.currentTarget.value,
          selection: { start: event.currentTarget.selectionStart, end: event.currentTarget.selectionEnd },
        })
      }
      onKeyDown={onKeyDown}
      onPaste={onPaste}
    />
  );
}

interface SendButtonProps {
  composer: MessageComposer;
  disabled: boolean;
  label: string;
  /** Where a voice message can be recorded: start one (held by a finger, or until Stop). */
  onRecord?: (hold?: Hold) => void;
  /** The recorder is being fetched. */
  recorderLoading: boolean;
}

/**
 * Enabled when the SDK finds the message sendable (re-rendered with the composer for attachments,
 * polls, quotes); where a voice message can be recorded, the microphone while there is nothing to send.
 */
function SendButton({ composer, disabled, label, onRecord, recorderLoading }: SendButtonProps) {
  const sendable = useFromText(composer, sendableOf);
  const canSend = !disabled && sendable;
  if (onRecord && !sendable) return <RecordButton disabled={disabled} loading={recorderLoading} onRecord={onRecord} />;
  return (
    <button type="submit" className="send-button" part="send-button" aria-label={label} disabled={!canSend}>
      <SendIcon />
    </button>
  );
}

function CharCounter({ composer }: { composer: MessageComposer }) {
  const remaining = useFromText(composer, counterOf);
  const t = useT();
  if (remaining === null) return null;
  const tooLong = remaining < 0;
  const max = composer.configState.getLatestValue().text.maxLengthOnSend;
  return (
    <p className={`char-counter${tooLong ? ' over' : ''}`} part="char-counter" aria-live="polite">
      {tooLong ? t('composer.charactersOver', { count: -remaining, max: max ?? 0 }) : t('composer.charactersLeft', { count: remaining })}
    </p>
  );
}
