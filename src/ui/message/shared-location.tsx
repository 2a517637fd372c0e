import { useEffect, useState } from 'react';
import type { SharedLocationResponse } from 'stream-chat';
import { errorDetail } from '../../session/session-error';
import { text, type Text } from '../../i18n/translate';
import { useLocalization, useSay } from '../common/localization';
import { useChatClient } from '../common/chat-client';
import { formatTime } from '../common/format';
import { PinIcon } from '../common/icons';

// setTimeout cannot wait longer than this (about 24.8 days).
const MAX_TIMER_MS = 2 ** 31 - 1;

const mapLink = (latitude: number, longitude: number) =>
  `https://www.openstreetmap.org/?mlat=${latitude}&mlon=${longitude}#map=16/${latitude}/${longitude}`;

/**
 * A shared location: the coordinates and a link to open them on a map (no map tiles, so it
 * works offline). A live one says until when, follows the sharer's updates (each one a
 * message.updated), and lets its sharer stop it.
 */
export function SharedLocation({ location, own }: { location: SharedLocationResponse; own: boolean }) {
  const client = useChatClient();
  const [now, setNow] = useState(() => Date.now());
  const [error, setError] = useState<Text | null>(null);
  const { t, locale } = useLocalization();
  const say = useSay();
  const end = location.end_at ? new Date(location.end_at).getTime() : null;
  const live = end !== null && end > now;
  // Re-render when the share ends, so "live until" goes away on time.
  useEffect(() => {
    if (!live || end === null) return;
    const timer = setTimeout(() => setNow(Date.now()), Math.min(end - Date.now() + 50, MAX_TIMER_MS));
    return () => clearTimeout(timer);
  }, [live, end]);

  const { latitude, longitude } = location;
  const stop = () => {
    if (!client) return;
    const [type = '', id = ''] = location.channel_cid.split(':');
    setError(null);
    client
      .channel(type, id)
      .stopLiveLocationSharing({ message_id: location.message_id, created_by_device_id: location.created_by_device_id })
      .catch((failure: unknown) => setError(text('message.stopFailed', { why: errorDetail(failure) })));
  };

  return (
    <div className="location-card" part="shared-location" data-live={live}>
      <span className="location-title">
        <PinIcon />
        {t(end === null ? 'message.location' : live ? 'message.liveLocation' : 'message.liveLocationEnded')}
      </span>
      <span className="location-coords">
        {latitude.toFixed(5)}, {longitude.toFixed(5)}
      </span>
      {live && <span className="location-live">{t('message.liveUntil', { time: formatTime(new Date(end), locale) })}</span>}
      <span className="location-actions">
        <a href={mapLink(latitude, longitude)} target="_blank" rel="noopener noreferrer">
          {t('message.openMap')}
        </a>
        {live && own && (
          <button type="button" className="link-button" part="stop-location-button" onClick={stop}>
            {t('message.stopSharing')}
          </button>
        )}
      </span>
      {error && (
        <span className="field-error" role="alert">
          {say(error)}
        </span>
      )}
    </div>
  );
}
