import { fireEvent, waitFor } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { shareLocation } from '../../../src/session/share-location';
import { LIVE_DURATIONS } from '../../../src/ui/composer/location-form';
import { part } from '../../element/helpers';
import { otherUser, useBackend } from '../backend';
import { all, chooseTool, clientOf, find, openWidget } from './composer-helpers';

const backend = useBackend();

type Outcome = { coords: { latitude: number; longitude: number } } | { code: number };

/** The browser's geolocation, answering every request with `outcome`. */
function stubGeolocation(outcome: Outcome | null) {
  const geolocation = outcome && {
    getCurrentPosition: (ok: PositionCallback, fail: PositionErrorCallback) =>
      setTimeout(() => ('coords' in outcome ? ok({ coords: outcome.coords } as GeolocationPosition) : fail({ code: outcome.code } as GeolocationPositionError))),
    watchPosition: () => 1,
    clearWatch: () => undefined,
  };
  vi.spyOn(navigator, 'geolocation', 'get').mockReturnValue((geolocation ?? undefined) as unknown as Geolocation);
}

afterEach(() => vi.restoreAllMocks());

const STOCKHOLM = { latitude: 59.3293, longitude: 18.0686 };

describe('sharing a location', () => {
  it('sends the current position once: coordinates and a map link, for everyone', async () => {
    const { el } = await openWidget(backend.server.url, 'alice');
    stubGeolocation({ coords: STOCKHOLM });
    const bob = await otherUser(backend.server.url, 'bob');
    const arrived = new Promise<{ shared_location?: unknown }>((resolve) => bob.on('message.new', (event) => event.message && resolve(event.message)));
    await bob.channel('messaging', 'general').watch();

    await chooseTool(el, 'Location');
    fireEvent.click(await find(el, '[part~="share-location-button"]'));
    const card = await find(el, '[part~="own-message"] [part~="shared-location"]');
    expect(card.textContent).toContain('59.32930, 18.06860');
    expect(card.querySelector('a')?.getAttribute('href')).toBe('https://www.openstreetmap.org/?mlat=59.3293&mlon=18.0686#map=16/59.3293/18.0686');
    expect(card.getAttribute('data-live')).toBe('false');
    expect(card.querySelector('[part~="stop-location-button"]')).toBeNull();
    expect(part(el, 'location-form')).toBeNull();
    expect((await arrived).shared_location).toMatchObject(STOCKHOLM);
    await bob.disconnectUser();
  });

  it('shares live for a chosen duration, says until when, and stops', async () => {
    const { el } = await openWidget(backend.server.url, 'alice');
    stubGeolocation({ coords: STOCKHOLM });
    await chooseTool(el, 'Location');
    const select = (await find(el, '[part~="location-form"] select')) as HTMLSelectElement;
    expect(Array.from(select.options).map((o) => o.textContent)).toEqual(['for 15 minutes', 'for 1 hour', 'for 8 hours']);
    select.value = String(60 * 60_000);
    select.dispatchEvent(new Event('change', { bubbles: true }));
    await new Promise((resolve) => setTimeout(resolve, 0)); // the panel re-renders with the choice
    const before = Date.now();
    fireEvent.click(part(el, 'share-live-location-button') as HTMLElement);

    const card = await find(el, '[part~="own-message"] [part~="shared-location"][data-live="true"]');
    const until = new Date(before + 60 * 60_000).toLocaleTimeString(undefined, { hour: 'numeric', minute: '2-digit' });
    expect(card.querySelector('.location-live')?.textContent).toBe(`Live until ${until}`);
    fireEvent.click(card.querySelector('[part~="stop-location-button"]') as HTMLElement);
    await waitFor(() => expect(card.getAttribute('data-live')).toBe('false'));
    expect(card.querySelector('.location-title')?.textContent).toBe('Live location (ended)');
    expect(card.querySelector('.location-live')).toBeNull();
  });

  it('says so when location access is denied, unavailable, or missing from the browser', async () => {
    const { el } = await openWidget(backend.server.url, 'alice');
    const sent = all(el, '[part~="shared-location"]').length;
    const attempt = async (outcome: Outcome | null) => {
      stubGeolocation(outcome);
      fireEvent.click(part(el, 'share-location-button') as HTMLElement);
      const alert = await find(el, '[part~="location-form"] [role="alert"]');
      return alert.textContent;
    };
    await chooseTool(el, 'Location');
    expect(await attempt({ code: 1 })).toBe('Location access is blocked: allow it for this site in the browser’s settings.');
    expect(await attempt({ code: 2 })).toBe('Your position is not available right now. Try again soon.');
    expect(await attempt(null)).toBe('This browser cannot tell where you are.');
    expect(all(el, '[part~="shared-location"]')).toHaveLength(sent);
  });

  it('offers only live durations of a minute or more, and a shorter one is refused before sending', async () => {
    expect(LIVE_DURATIONS.every(([ms]) => ms >= 60_000)).toBe(true);
    const { el } = await openWidget(backend.server.url, 'alice');
    const composer = clientOf(el).channel('messaging', 'general').messageComposer;
    const send = vi.spyOn(composer.channel, 'sendSharedLocation');
    await expect(shareLocation(composer, STOCKHOLM, 10_000)).rejects.toThrow('A live location must be shared for at least one minute.');
    expect(send).not.toHaveBeenCalled();
    // Nothing is left behind to ride along with the next message.
    expect(composer.locationComposer.location).toBeNull();
    send.mockRestore();
  });
});
