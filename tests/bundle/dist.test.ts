// @vitest-environment-options { "settings": { "enableJavaScriptEvaluation": true, "suppressInsecureJavaScriptEnvironmentWarning": true } }
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { waitFor } from '@testing-library/preact';
import { describe, expect, it } from 'vitest';

// The built file, exactly as a site loads it with a plain <script> tag (npm test builds first).
const bundle = readFileSync(resolve('dist/chat-widget.js'), 'utf8');

function loadScript() {
  const script = document.createElement('script');
  script.textContent = bundle;
  document.head.append(script);
}

describe('dist/chat-widget.js', () => {
  it('registers <chat-widget> and renders the launcher in a shadow root', async () => {
    loadScript();
    expect(customElements.get('chat-widget')).toBeDefined();
    const el = document.createElement('chat-widget');
    el.setAttribute('api-key', 'key');
    el.setAttribute('base-url', 'http://127.0.0.1:9');
    document.body.append(el);
    await waitFor(() => expect(el.shadowRoot?.querySelector('[part~="launcher"]')).not.toBeNull());
  });

  it('is harmless when a page loads it twice', () => {
    const first = customElements.get('chat-widget');
    expect(() => loadScript()).not.toThrow();
    expect(customElements.get('chat-widget')).toBe(first);
  });

  it('needs no eval, no new Function and no unguarded Node globals', () => {
    expect(bundle).not.toMatch(/\beval\(|new Function\(/);
    expect(bundle).not.toMatch(/\brequire\(["']/);
    // Every mention of `process` in the bundle comes shortly after a typeof check (in its guarded expression).
    const unguarded = [...bundle.matchAll(/[^.\w]process\b/g)].filter(
      (mention) => !bundle.slice(Math.max(0, mention.index - 160), mention.index + 8).includes('typeof process'),
    );
    expect(unguarded.map((mention) => bundle.slice(mention.index - 40, mention.index + 40))).toEqual([]);
  });

  it('contains exactly one copy of Preact and no React', () => {
    const modules = Object.keys(
      JSON.parse(readFileSync(resolve('dist/chat-widget.js.modules.json'), 'utf8')) as Record<string, number>,
    );
    expect(modules.filter((id) => id.endsWith('preact/dist/preact.module.js'))).toHaveLength(1);
    expect(modules.filter((id) => /node_modules\/(react|react-dom)\//.test(id))).toEqual([]);
  });

  // The parts fetched on first use (build/fetch-on-first-use.mjs): the single file asks for each
  // by the signature of the list of its modules it hands over, and the part answers to the same.
  it.each(['recorder', 'sheets', 'views', 'search'])('has chat-widget.%s.js beside it, built against its list of the page’s modules', (name) => {
    const part = readFileSync(resolve(`dist/chat-widget.${name}.js`), 'utf8');
    const signature = /detail:\{signature:"([0-9a-f]{16})"/.exec(part)?.[1];
    expect(signature).toBeDefined();
    // Checked as booleans: a failure would otherwise print the whole bundle.
    expect(bundle.includes(`"./chat-widget.${name}.js"`)).toBe(true);
    expect(bundle.includes(`"${signature}"`)).toBe(true);
    // Preact and the panel's helpers come from the page: the part has no component machinery of its own.
    expect(part).not.toMatch(/setState|forceUpdate/);
  });

  // The returning visitor's badge client runs in a worker (element/badge-host.ts): its script
  // touches no page at all, and answers the page's messages once started.
  it('has chat-widget.badge.js beside it, a worker script that needs no page', async () => {
    const script = readFileSync(resolve('dist/chat-widget.badge.js'), 'utf8');
    const posted: unknown[] = [];
    const scope: { onmessage?: (event: { data: unknown }) => void; postMessage: (note: unknown) => void } = { postMessage: (note) => posted.push(note) };
    // Run with a worker's global alone: `self`, and no document or window in reach.
    new Function('self', 'document', 'window', script)(scope, undefined, undefined);
    expect(typeof scope.onmessage).toBe('function');
    // A stop before any start is answered at once (the page waits for it).
    scope.onmessage!({ data: { stop: 7 } });
    await waitFor(() => expect(posted).toEqual([{ left: 7 }]));
    expect(bundle.includes('chat-widget.badge.js')).toBe(true);
  });
});
