import { waitFor } from '@testing-library/preact';
import { describe, expect, it, vi } from 'vitest';
import { fetchToken } from '../../src/session/token-endpoint';
import { mount, record, shadow } from '../element/helpers';

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('fetchToken', () => {
  it('sends the site cookie and returns the token and user', async () => {
    const fetchSpy = vi.fn(async () => json({ token: 'jwt', user: { id: 'ann', name: 'Ann' } }));
    vi.stubGlobal('fetch', fetchSpy);
    await expect(fetchToken('http://127.0.0.1:9/token')).resolves.toEqual({ token: 'jwt', user: { id: 'ann', name: 'Ann' } });
    expect(fetchSpy).toHaveBeenCalledWith('http://127.0.0.1:9/token', expect.objectContaining({ credentials: 'include' }));
  });

  it('returns the conversation the site chose for the visitor', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => json({ token: 'jwt', user: { id: 'ann' }, channel: 'messaging:support-ann' })));
    await expect(fetchToken('/token')).resolves.toEqual({ token: 'jwt', user: { id: 'ann' }, channel: { type: 'messaging', id: 'support-ann' } });
  });

  it.each([
    ['a 401', async () => json({ error: 'no' }, 401), 'token-unauthorized', /did not allow this visitor to chat \(HTTP 401\)/],
    ['a 403', async () => json({}, 403), 'token-unauthorized', /HTTP 403/],
    ['a 500', async () => json({}, 500), 'token-endpoint-failed', /token endpoint failed \(HTTP 500\)/],
    ['non-JSON', async () => new Response('<html>login</html>', { status: 200 }), 'token-invalid-response', /did not answer with JSON/],
    ['JSON without a token', async () => json({ user: { id: 'x' } }), 'token-invalid-response', /without a "token"/],
    ['JSON without a user id', async () => json({ token: 't', user: {} }), 'token-invalid-response', /"user" with an "id"/],
    ['a channel that is not type:id', async () => json({ token: 't', user: { id: 'x' }, channel: 'a:b:c' }), 'token-invalid-response', /"channel" that is not "type:id"/],
    ['a channel that is not a string', async () => json({ token: 't', user: { id: 'x' }, channel: 7 }), 'token-invalid-response', /"channel"/],
    ['no answer at all', async () => Promise.reject(new TypeError('Failed to fetch')), 'token-unreachable', /could not be reached/],
  ])('turns %s into a readable error', async (_, answer, reason, text) => {
    vi.stubGlobal('fetch', vi.fn(answer));
    await expect(fetchToken('/token')).rejects.toMatchObject({ reason, message: expect.stringMatching(text) });
  });

  it("says the page's Content-Security-Policy blocks the endpoint when the browser reports it, even a moment after the failure", async () => {
    const violation = (blockedURI: string) => Object.assign(new Event('securitypolicyviolation'), { effectiveDirective: 'connect-src', blockedURI });
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        // The report comes a task after the refusal, as in Chromium it may.
        setTimeout(() => document.dispatchEvent(violation('http://elsewhere.example:8080/token?user=ann')));
        throw new TypeError('Failed to fetch');
      }),
    );
    await expect(fetchToken('http://elsewhere.example:8080/token?user=ann')).rejects.toMatchObject({
      reason: 'token-blocked-by-policy',
      message: "This page's Content-Security-Policy blocks the token endpoint: add http://elsewhere.example:8080 to connect-src.",
    });
    // A report about another origin is not this endpoint's: the failure stays a network one.
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        document.dispatchEvent(violation('http://other.example/x'));
        throw new TypeError('Failed to fetch');
      }),
    );
    await expect(fetchToken('http://elsewhere.example:8080/token')).rejects.toMatchObject({ reason: 'token-unreachable' });
  });
});

describe('the panel when the token endpoint fails', () => {
  it.each([
    ['401', async () => json({}, 401), 'token-unauthorized', /did not allow this visitor/],
    ['500', async () => json({}, 500), 'token-endpoint-failed', /HTTP 500/],
    ['non-JSON', async () => new Response('oops'), 'token-invalid-response', /not answer with JSON/],
    ['no answer', async () => Promise.reject(new TypeError('Failed to fetch')), 'token-unreachable', /could not be reached/],
  ])('answering %s shows the reason with a retry, and emits chat-widget-error', async (_, answer, reason, text) => {
    vi.stubGlobal('fetch', vi.fn(answer));
    const errors = record(document, 'chat-widget-error');
    const el = mount({ 'api-key': 'key', channel: 'general', 'token-endpoint': `/token-${reason}`, open: true });
    const alert = await shadow(el).findByRole('alert');
    expect(alert.textContent).toMatch(text);
    expect(alert.textContent).toMatch(/Chat is unavailable right now/);
    expect(shadow(el).getByRole('button', { name: 'Try again' })).toBeTruthy();
    await waitFor(() => expect(errors).toContainEqual({ reason, message: expect.stringMatching(text) }));
  });

  it('"Try again" asks the token endpoint again', async () => {
    const fetchSpy = vi.fn(async () => json({}, 500));
    vi.stubGlobal('fetch', fetchSpy);
    const el = mount({ 'api-key': 'key', channel: 'general', 'token-endpoint': '/token-retry', open: true });
    (await shadow(el).findByRole('button', { name: 'Try again' })).click();
    await waitFor(() => expect(fetchSpy).toHaveBeenCalledTimes(2));
  });

  it('a first-time visitor who never opens the widget makes no request', async () => {
    const fetchSpy = vi.fn(async () => json({}, 500));
    vi.stubGlobal('fetch', fetchSpy);
    const el = mount({ 'api-key': 'key-quiet', channel: 'general', 'token-endpoint': '/token-quiet' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(fetchSpy).not.toHaveBeenCalled();
    el.open();
    await waitFor(() => expect(fetchSpy).toHaveBeenCalledTimes(1));
  });
});
