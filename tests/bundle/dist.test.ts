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
});
