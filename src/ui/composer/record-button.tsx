// The microphone, where the send button is while there is nothing to send (as phones' chat apps
// do): a click, a key or a tap starts recording until Stop; a finger held on it records until it
// lifts. The recorder itself is fetched on first use (recorder-loader.ts).
import type { Hold } from './recorder/voice-recorder';
import { useT } from '../common/localization';

/** Whether this browser can record: a secure page with a microphone API and MediaRecorder. */
export const canRecord = () => typeof MediaRecorder !== 'undefined' && Boolean(navigator.mediaDevices?.getUserMedia) && window.isSecureContext;

export function RecordButton({ disabled, loading, onRecord }: { disabled: boolean; loading: boolean; onRecord: (hold?: Hold) => void }) {
  const t = useT();
  return (
    <button
      type="button"
      className="send-button record-button"
      part="record-button"
      aria-label={t('composer.record')}
      aria-busy={loading}
      disabled={disabled}
      onPointerDown={(event) => {
        if (event.pointerType !== 'touch') return;
        const hold: Hold = { pointerId: event.pointerId, x: event.clientX, y: event.clientY, at: performance.now() };
        // The finger may lift before the recorder has loaded: it then records until Stop.
        const lift = (up: PointerEvent) => {
          if (up.pointerId !== hold.pointerId) return;
          hold.released = true;
          window.removeEventListener('pointerup', lift);
          window.removeEventListener('pointercancel', lift);
        };
        window.addEventListener('pointerup', lift);
        window.addEventListener('pointercancel', lift);
        onRecord(hold);
      }}
      // A tap's click follows its pointerdown, which has started already.
      onClick={(event) => (event as unknown as PointerEvent).pointerType !== 'touch' && onRecord()}
    >
      <svg width="20" height="20" viewBox="0 0 24 24" fill="none" aria-hidden="true">
        <path stroke="currentColor" strokeWidth={2} strokeLinecap="round" d="M12 3a3 3 0 0 0-3 3v6a3 3 0 0 0 6 0V6a3 3 0 0 0-3-3zM5 11a7 7 0 0 0 14 0M12 18v3" />
      </svg>
    </button>
  );
}
