import { baseStyles } from '../styles/base.styles';

// The widget has two stylesheets: the launcher's (here), adopted at once, and the panel's
// (src/ui/shell/panel-styles.ts), adopted the first time a panel is shown, so a closed bubble's page
// does not parse the panel's rules, nor even carry them when it uses the loader.

// Captured while the widget script itself runs: a page with a strict CSP gives the
// script tag a nonce, and the <style> fallback must carry the same one.
const scriptNonce =
  typeof document !== 'undefined' ? (document.currentScript as HTMLScriptElement | null)?.nonce : undefined;

const constructed = new Map<string, CSSStyleSheet | null>();

/** One constructable stylesheet of each name for every instance; null where the browser cannot make one. */
function constructedSheet(name: string, css: string): CSSStyleSheet | null {
  if (constructed.has(name)) return constructed.get(name) ?? null;
  let sheet: CSSStyleSheet | null = null;
  try {
    sheet = new CSSStyleSheet();
    sheet.replaceSync(css);
  } catch {
    sheet = null;
  }
  constructed.set(name, sheet);
  return sheet;
}

/**
 * Puts one of the widget's stylesheets into a shadow root, once, after those it has: the shared
 * adopted sheet (which strict CSP `style-src` does not block), or a `<style nonce>` element
 * where that is missing.
 */
export function adoptSheet(root: ShadowRoot, name: string, css: string) {
  const sheet = 'adoptedStyleSheets' in root ? constructedSheet(name, css) : null;
  if (sheet) {
    const adopted = root.adoptedStyleSheets;
    if (!adopted.includes(sheet)) root.adoptedStyleSheets = [...adopted, sheet];
    return;
  }
  if (root.querySelector(`style[data-sheet="${name}"]`)) return;
  const style = document.createElement('style');
  style.dataset.sheet = name;
  if (scriptNonce) style.nonce = scriptNonce;
  style.textContent = css;
  const last = [...root.querySelectorAll('style[data-sheet]')].at(-1);
  if (last) last.after(style);
  else root.prepend(style);
}

/** The host, theme and launcher styles: every instance, at once. */
export const installStyles = (root: ShadowRoot) => adoptSheet(root, 'base', baseStyles);
