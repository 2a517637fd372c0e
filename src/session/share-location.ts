import type { Coords, MessageComposer } from 'stream-chat';
import type { MessageKey } from '../i18n/en';
import { english } from '../i18n/english';
import { text, type Text } from '../i18n/translate';

const POSITION_ERRORS: Record<number, MessageKey> = {
  1: 'location.denied',
  2: 'location.unavailable',
  3: 'location.timeout',
};

/** Why a position could not be shared, in words the panel translates. */
export class LocationError extends Error {
  constructor(readonly text: Text) {
    super(english(text));
  }
}

/** The device's position once, or an error that says why not (denied, unavailable, too slow). */
export function currentPosition(): Promise<Coords> {
  const geolocation = typeof navigator === 'undefined' ? undefined : navigator.geolocation;
  if (!geolocation) return Promise.reject(new LocationError(text('location.unsupported')));
  return new Promise((resolve, reject) =>
    geolocation.getCurrentPosition(
      ({ coords }) => resolve({ latitude: coords.latitude, longitude: coords.longitude }),
      (error) => reject(new LocationError(text(POSITION_ERRORS[error.code] ?? 'location.unreadable'))),
      { timeout: 15_000, maximumAge: 10_000 },
    ),
  );
}

/**
 * Shares a position as a message through the SDK: the location composer decides whether the
 * location is valid (a live share needs at least a minute), `sendLocation` sends it, and the
 * live-location manager keeps a live one moving. A refused send is reported by the SDK
 * (client.notifications) and rethrown.
 */
export async function shareLocation(composer: MessageComposer, coords: Coords, durationMs?: number): Promise<void> {
  const { locationComposer } = composer;
  locationComposer.setData({ ...coords, durationMs });
  if (!locationComposer.validLocation) {
    locationComposer.initState();
    throw new LocationError(text(durationMs !== undefined ? 'location.tooShort' : 'location.invalid'));
  }
  try {
    await composer.sendLocation();
  } catch (error) {
    // Not left in the composer, where it would ride along with the next text message.
    locationComposer.initState();
    throw error;
  }
}
