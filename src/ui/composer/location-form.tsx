import { useId, useState } from 'react';
import type { MessageComposer } from 'stream-chat';
import { errorDetail } from '../../session/session-error';
import { currentPosition, LocationError, shareLocation } from '../../session/share-location';
import { Sheet } from './sheet';
import { text, type Text } from '../../i18n/translate';
import { useSay, useT } from '../common/localization';

const MINUTE = 60_000;
/** How long a live location can be shared for; the SDK refuses anything under a minute. */
export const LIVE_DURATIONS: Array<[number, Text]> = [
  [15 * MINUTE, text('location.forMinutes', { count: 15 })],
  [60 * MINUTE, text('location.forHours', { count: 1 })],
  [8 * 60 * MINUTE, text('location.forHours', { count: 8 })],
];

/** Share the current position once, or live for a while (updated as the device moves). */
export function LocationForm({ composer, onClose }: { composer: MessageComposer; onClose: () => void }) {
  const id = useId();
  const [duration, setDuration] = useState(LIVE_DURATIONS[0]?.[0] ?? MINUTE);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Text | null>(null);
  const t = useT();
  const say = useSay();

  const share = async (durationMs?: number) => {
    setBusy(true);
    setError(null);
    try {
      await shareLocation(composer, await currentPosition(), durationMs);
      onClose();
    } catch (failure) {
      setBusy(false);
      setError(failure instanceof LocationError ? failure.text : text('location.failed', { why: errorDetail(failure) }));
    }
  };

  return (
    <Sheet title={t('location.title')} part="location-form" onClose={onClose}>
      <p className="sheet-text">{t('location.text')}</p>
      <button type="button" className="button wide" part="share-location-button" disabled={busy} onClick={() => void share()}>
        {t('location.sendCurrent')}
      </button>
      <div className="field live-location-field">
        <label className="field-label" htmlFor={`${id}-duration`}>
          {t('location.liveLabel')}
        </label>
        <div className="inline-controls">
          <select id={`${id}-duration`} className="text-field" value={duration} onChange={(event) => setDuration(Number(event.currentTarget.value))}>
            {LIVE_DURATIONS.map(([ms, label]) => (
              <option key={ms} value={ms}>
                {say(label)}
              </option>
            ))}
          </select>
          <button type="button" className="button secondary" part="share-live-location-button" disabled={busy} onClick={() => void share(duration)}>
            {t('location.shareLive')}
          </button>
        </div>
      </div>
      {busy && <p className="sheet-text">{t('location.finding')}</p>}
      {error && (
        <p className="field-error" role="alert">
          {say(error)}
        </p>
      )}
    </Sheet>
  );
}
