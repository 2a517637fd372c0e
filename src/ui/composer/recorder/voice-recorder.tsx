// The voice recorder in the composer's row: a timer, the live level as moving bars, Discard, and
// Stop (or, while a finger holds the microphone button, "slide away to cancel" and release to
// stop). What is recorded goes to the composer as a voice message attachment, where the visitor
// listens back, removes it or sends it like any file. This module and what it imports of its
// own are a script fetched on first use (recorder-loader.ts); Preact and the panel's helpers
// come from the page.
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { MessageComposer } from 'stream-chat';
import { adoptSheet } from '../../../element/styles';
import { text, type Text } from '../../../i18n/translate';
import { markVoiceRecording } from '../../../session/composer-setup';
import { formatBytes } from '../../common/format';
import { useLocalization } from '../../common/localization';
import { minutes } from '../../message/voice-player';
import { addFiles, notifyText } from '../attachment-input';
import { blockedReason } from '../notifications';
import { recorderStyles } from './recorder.styles';
import { MAX_DURATION_S, startRecording, voiceFormat, type Recording, type StartFailure, type StoppedBy } from './recording';

/** A finger holding the microphone button: the recording lasts while it is held. */
export interface Hold {
  pointerId: number;
  x: number;
  y: number;
  /** When it was pressed (performance.now()). */
  at: number;
  /** Set by the button if the finger lifts before the recorder is here. */
  released?: boolean;
}

/** How far a finger slides from the button to cancel. */
const CANCEL_DISTANCE_PX = 80;
/** A press shorter than this is a tap: recording goes on until Stop. */
const TAP_MS = 400;
/** Bars in the live level meter. */
const METER_BARS = 24;
/** The SDK's own upload limit when the app sets none (its DEFAULT_UPLOAD_SIZE_LIMIT_BYTES). */
const DEFAULT_SIZE_LIMIT = 100 * 1024 * 1024;

/** The running timer: whole seconds gone (the final length is rounded, as the player shows it). */
const clock = (seconds: number) => `${Math.floor(seconds / 60)}:${String(Math.floor(seconds % 60)).padStart(2, '0')}`;

/** The app's upload size limit for files, or the SDK's default; without the settings, the default. */
async function sizeLimit(composer: MessageComposer): Promise<number> {
  const client = composer.client;
  try {
    const settings = await (client.appSettingsPromise ?? client.getAppSettings());
    return settings?.app?.file_upload_config?.size_limit || DEFAULT_SIZE_LIMIT;
  } catch {
    return DEFAULT_SIZE_LIMIT;
  }
}

/**
 * Why a voice message cannot be sent here before anything is recorded: no free attachment slot,
 * or the app's upload settings refuse this browser's recording type. Null when it can.
 */
async function refusal(composer: MessageComposer): Promise<Text | null> {
  const manager = composer.attachmentManager;
  if (manager.availableUploadSlots <= 0) return text('composer.tooManyFiles', { max: manager.maxNumberOfFilesPerMessage, count: 1 });
  const { type, extension } = voiceFormat();
  const check = await manager.getUploadConfigCheck(new File([], `voice-message.${extension}`, { type }));
  if (!check.uploadBlocked || check.reason === 'size_limit') return null;
  return text('recorder.blocked', { why: blockedReason(check.reason) ?? text('composer.blockedUnknown') });
}

export function VoiceRecorder({ composer, hold: held, onEnd }: { composer: MessageComposer; hold?: Hold; onEnd: () => void }) {
  const { t, locale } = useLocalization();
  const root = useRef<HTMLDivElement>(null);
  const stopButton = useRef<HTMLButtonElement>(null);
  const [hold, setHold] = useState(held);
  const [levels, setLevels] = useState<number[]>([]);
  const [elapsed, setElapsed] = useState(0);
  const [started, setStarted] = useState(false);
  const [slide, setSlide] = useState(0);
  // What the buttons and listeners act on; `ending` makes every way out happen once.
  const session = useRef<{ recording?: Recording; ending?: 'finish' | 'discard'; stoppedBy?: StoppedBy; liftedAt?: number }>({});

  const notify = (said: Text, type: string, severity?: 'info') => notifyText(composer, said, `recorder:${type}`, severity);

  /** Ends the recording: kept (to the composer) or discarded; once. */
  const end = async (how: 'finish' | 'discard') => {
    const current = session.current;
    if (current.ending) return;
    current.ending = how;
    const recording = current.recording;
    onEnd();
    if (!recording) return; // not started yet: the start sees `ending` and stops there
    if (how === 'discard') {
      recording.cancel();
      notify(text('recorder.discarded'), 'discarded', 'info');
      return;
    }
    const recorded = await recording.finish();
    // Too short to hold a sound (or nothing came from the microphone): said, not silently dropped.
    if (!recorded) return notify(text('recorder.discarded'), 'discarded', 'info');
    if (current.stoppedBy === 'maxDuration') notify(text('recorder.maxDuration', { duration: minutes(MAX_DURATION_S) }), 'limit');
    markVoiceRecording(recorded.file, { duration: recorded.duration, waveform_data: recorded.waveform });
    addFiles(composer, [recorded.file]);
    notify(text('recorder.ready', { duration: minutes(recorded.duration) }), 'ready', 'info');
  };

  useLayoutEffect(() => {
    const shadow = root.current?.getRootNode();
    if (shadow instanceof ShadowRoot) adoptSheet(shadow, 'recorder', recorderStyles);
  }, []);

  // Start at once; whatever ends the recorder before the microphone answers stops it there.
  useEffect(() => {
    const current = session.current;
    void (async () => {
      const refused = await refusal(composer).catch(() => null);
      // Each wait may outlast the recorder (discarded, the panel closed): then no microphone.
      if (current.ending) return;
      if (refused) {
        notify(refused, 'blocked');
        current.ending = 'discard';
        onEnd();
        return;
      }
      const maxBytes = await sizeLimit(composer);
      if (current.ending) return;
      try {
        current.recording = await startRecording({
          maxBytes,
          onLevel: (level) => {
            setLevels((last) => [...last.slice(1 - METER_BARS), level]);
            setElapsed(current.recording?.elapsed() ?? 0);
          },
          onStopped: (by) => {
            current.stoppedBy = by;
            if (by === 'maxSize') notify(text('recorder.maxSize', { size: formatBytes(maxBytes, locale) }), 'limit');
            void end('finish');
          },
        });
      } catch (failure) {
        if (!current.ending) notify(text(`recorder.${failure as StartFailure}`), String(failure));
        current.ending = 'discard';
        onEnd();
        return;
      }
      // Ended while the microphone was being asked for: nothing worth keeping was recorded.
      if (current.ending) return current.recording.cancel();
      setStarted(true);
    })();
    // The panel closing (or the conversation changing) keeps what was recorded.
    return () => void end('finish');
  }, []);

  // A tab put away stops the recording (the browser may stop the microphone anyway) and keeps it.
  useEffect(() => {
    const hidden = () => document.visibilityState === 'hidden' && void end('finish');
    document.addEventListener('visibilitychange', hidden);
    return () => document.removeEventListener('visibilitychange', hidden);
  }, []);

  // Held: sliding away cancels, lifting the finger stops; a short press was a tap, and Stop ends it.
  useEffect(() => {
    if (!hold) {
      stopButton.current?.focus();
      return;
    }
    if (hold.released) return setHold(undefined);
    // The finger's events reach the window wherever it goes (no capture: a captured pointer's
    // click would land on Stop).
    const mine = (event: PointerEvent) => event.pointerId === hold.pointerId;
    const move = (event: PointerEvent) => {
      if (!mine(event)) return;
      const distance = Math.hypot(event.clientX - hold.x, event.clientY - hold.y);
      setSlide(Math.min(1, distance / CANCEL_DISTANCE_PX));
      if (distance > CANCEL_DISTANCE_PX) void end('discard');
    };
    const up = (event: PointerEvent) => {
      if (!mine(event)) return;
      session.current.liftedAt = performance.now();
      if (performance.now() - hold.at < TAP_MS) setHold(undefined);
      else void end('finish');
    };
    window.addEventListener('pointermove', move);
    window.addEventListener('pointerup', up);
    window.addEventListener('pointercancel', up);
    return () => {
      window.removeEventListener('pointermove', move);
      window.removeEventListener('pointerup', up);
      window.removeEventListener('pointercancel', up);
    };
  }, [hold]);

  const bars = Array.from({ length: METER_BARS }, (_, index) => levels[index - (METER_BARS - levels.length)] ?? 0);
  return (
    <div
      ref={root}
      className="recorder"
      part="recorder"
      onKeyDown={(event) => {
        if (event.key !== 'Escape') return;
        event.stopPropagation();
        void end('discard');
      }}
    >
      {hold ? (
        <span className="recorder-slide" style={{ opacity: 1 - slide }} aria-hidden="true">
          {t('recorder.slide')}
        </span>
      ) : (
        <button type="button" className="icon-button recorder-discard" aria-label={t('recorder.discard')} onClick={() => void end('discard')}>
          <svg width="20" height="20" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
            <path d="M4 7h16M10 11v6M14 11v6M6 7l1 13h10l1-13M9 7V4h6v3" />
          </svg>
        </button>
      )}
      <span className="recorder-status" role="status">
        <span className={`recorder-dot${started ? ' on' : ''}`} aria-hidden="true" />
        <span className="visually-hidden">{started ? t('recorder.recording') : ''}</span>
        <span className="recorder-time" aria-hidden="true">
          {clock(elapsed)}
        </span>
      </span>
      <span className="recorder-meter" aria-hidden="true">
        {bars.map((level, index) => (
          <i key={index} style={{ transform: `scaleY(${Math.max(0.08, level)})` }} />
        ))}
      </span>
      <button
        ref={stopButton}
        type="button"
        className={`send-button recorder-stop${hold ? ' held' : ''}`}
        part="recorder-stop"
        aria-label={t('recorder.stop')}
        // A tap's own click, landing where the microphone was, is not a Stop.
        onClick={() => performance.now() - (session.current.liftedAt ?? -Infinity) > TAP_MS && void end('finish')}
      >
        <svg width="16" height="16" viewBox="0 0 16 16" aria-hidden="true">
          <rect x="3" y="3" width="10" height="10" rx="2" fill="currentColor" />
        </svg>
      </button>
    </div>
  );
}
