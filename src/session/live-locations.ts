import { LiveLocationManager, MessageComposer, type Coords, type StreamChat } from 'stream-chat';
import { AFTER_CONNECT_IDLE_MS, whenIdle } from '../browser/when-idle';

/** The browser's position as the SDK's LiveLocationManager wants it; nothing happens without geolocation. */
function watchPosition(handler: (coords: Coords) => void): () => void {
  const geolocation = typeof navigator === 'undefined' ? undefined : navigator.geolocation;
  if (!geolocation) return () => undefined;
  const id = geolocation.watchPosition(
    ({ coords }) => handler({ latitude: coords.latitude, longitude: coords.longitude }),
    () => undefined,
    { maximumAge: 10_000 },
  );
  return () => geolocation.clearWatch(id);
}

/**
 * Keeps the user's live locations moving while this page is open: the SDK's manager restores
 * the shares still live, watches the position only while there is one, sends at most one update
 * per 3 s, and drops each share at its end. Returns the stop function. The shares still live
 * are asked for once the page is idle: that request and its answer stay off the path of the
 * first channel the visitor opened the chat for.
 */
export function startLiveLocations(client: StreamChat): () => void {
  const deviceId = MessageComposer.generateId();
  const manager = new LiveLocationManager({ client, getDeviceId: () => deviceId, watchLocation: watchPosition });
  let stopped = false;
  const cancel = whenIdle(() => {
    manager
      .init()
      // Without the list of shares still live, at least follow the ones started from now on.
      .catch(() => stopped || manager.registerSubscriptions())
      .then(() => stopped && manager.unregisterSubscriptions());
  }, AFTER_CONNECT_IDLE_MS);
  return () => {
    stopped = true;
    cancel();
    manager.unregisterSubscriptions();
  };
}
