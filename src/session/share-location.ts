import type { Coords, MessageComposer } from 'stream-chat';

const POSITION_ERRORS: Record<number, string> = {
  1: 'Location access is blocked: allow it for this site in the browser’s settings.',
  2: 'Your position is not available right now. Try again soon.',
  3: 'Finding your position took too long. Try again.',
};

/** The device's position once, or an error that says why not (denied, unavailable, too slow). */
export function currentPosition(): Promise<Coords> {
  const geolocation = typeof navigator === 'undefined' ? undefined : navigator.geolocation;
  if (!geolocation) return Promise.reject(new Error('This browser cannot tell where you are.'));
  return new Promise((resolve, reject) =>
    geolocation.getCurrentPosition(
      ({ coords }) => resolve({ latitude: coords.latitude, longitude: coords.longitude }),
      (error) => reject(new Error(POSITION_ERRORS[error.code] ?? 'Your position could not be read.')),
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
    throw new Error(
      durationMs !== undefined ? 'A live location must be shared for at least one minute.' : 'This position cannot be shared.',
    );
  }
  try {
    await composer.sendLocation();
  } catch (error) {
    // Not left in the composer, where it would ride along with the next text message.
    locationComposer.initState();
    throw error;
  }
}
