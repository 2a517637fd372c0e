import { searchStyles } from '../styles/search.styles';
import { widgetStyles } from '../styles/widget.styles';

const styles = widgetStyles + searchStyles;

// Captured while the widget script itself runs: a page with a strict CSP gives the
// script tag a nonce, and the <style> fallback must carry the same one.
const scriptNonce =
  typeof document !== 'undefined' ? (document.currentScript as HTMLScriptElement | null)?.nonce : undefined;

let sharedSheet: CSSStyleSheet | null | undefined;

/** One constructable stylesheet for every instance; null where the browser has none. */
function constructedSheet(): CSSStyleSheet | null {
  if (sharedSheet !== undefined) return sharedSheet;
  try {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(styles);
    sharedSheet = 'adoptedStyleSheets' in ShadowRoot.prototype ? sheet : null;
  } catch {
    sharedSheet = null;
  }
  return sharedSheet;
}

/**
 * Puts the widget's styles into a shadow root: the shared adopted sheet (which strict
 * CSP `style-src` does not block), or a `<style nonce>` element where that is missing.
 */
export function installStyles(root: ShadowRoot) {
  const sheet = constructedSheet();
  if (sheet) {
    if (!root.adoptedStyleSheets.includes(sheet)) root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
    return;
  }
  const style = document.createElement('style');
  if (scriptNonce) style.nonce = scriptNonce;
  style.textContent = styles;
  root.prepend(style);
}
