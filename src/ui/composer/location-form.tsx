import { useId, useState } from 'react';
import type { MessageComposer } from 'stream-chat';
import { errorDetail } from '../../session/session-error';
import { currentPosition, shareLocation } from '../../session/share-location';
import { Sheet } from './sheet';

const MINUTE = 60_000;
/** How long a live location can be shared for; the SDK refuses anything under a minute. */
export const LIVE_DURATIONS: Array<[number, string]> = [
  [15 * MINUTE, '15 minutes'],
  [60 * MINUTE, '1 hour'],
  [8 * 60 * MINUTE, '8 hours'],
];

/** Share the current position once, or live for a while (updated as the device moves). */
export function LocationForm({ composer, onClose }: { composer: MessageComposer; onClose: () => void }) {
  const id = useId();
  const [duration, setDuration] = useState(LIVE_DURATIONS[0]?.[0] ?? MINUTE);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const share = async (durationMs?: number) => {
    setBusy(true);
    setError(null);
    try {
      await shareLocation(composer, await currentPosition(), durationMs);
      onClose();
    } catch (failure) {
      setBusy(false);
      setError(errorDetail(failure));
    }
  };

  return (
    <Sheet title="Share your location" part="location-form" onClose={onClose}>
      <p className="sheet-text">Others see the coordinates and a map link.</p>
      <button type="button" className="button wide" part="share-location-button" disabled={busy} onClick={() => void share()}>
        Send my current location
      </button>
      <div className="field live-location-field">
        <label className="field-label" htmlFor={`${id}-duration`}>
          Or share it live as you move
        </label>
        <div className="inline-controls">
          <select id={`${id}-duration`} className="text-field" value={duration} onChange={(event) => setDuration(Number(event.currentTarget.value))}>
            {LIVE_DURATIONS.map(([ms, label]) => (
              <option key={ms} value={ms}>
                for {label}
              </option>
            ))}
          </select>
          <button type="button" className="button secondary" part="share-live-location-button" disabled={busy} onClick={() => void share(duration)}>
            Share live
          </button>
        </div>
      </div>
      {busy && <p className="sheet-text">Finding your position…</p>}
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
    </Sheet>
  );
}
