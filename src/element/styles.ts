import { baseStyles } from '../styles/base.styles';
import { searchStyles } from '../styles/search.styles';
import { widgetStyles } from '../styles/widget.styles';

// Two sheets: the launcher's at once, the panel's the first time a panel is shown, so a closed
// bubble's page does not parse the panel's rules.
const SHEETS = { base: baseStyles, panel: widgetStyles + searchStyles };
type SheetName = keyof typeof SHEETS;

// Captured while the widget script itself runs: a page with a strict CSP gives the
// script tag a nonce, and the <style> fallback must carry the same one.
const scriptNonce =
  typeof document !== 'undefined' ? (document.currentScript as HTMLScriptElement | null)?.nonce : undefined;

const constructed = new Map<SheetName, CSSStyleSheet | null>();

/** One constructable stylesheet of each kind for every instance; null where the browser has none. */
function constructedSheet(name: SheetName): CSSStyleSheet | null {
  if (constructed.has(name)) return constructed.get(name) ?? null;
  let sheet: CSSStyleSheet | null = null;
  try {
    sheet = new CSSStyleSheet();
    sheet.replaceSync(SHEETS[name]);
    if (!('adoptedStyleSheets' in ShadowRoot.prototype)) sheet = null;
  } catch {
    sheet = null;
  }
  constructed.set(name, sheet);
  return sheet;
}

/**
 * Puts one of the widget's stylesheets into a shadow root, once: the shared adopted sheet (which
 * strict CSP `style-src` does not block), or a `<style nonce>` element where that is missing.
 */
function install(root: ShadowRoot, name: SheetName) {
  const sheet = constructedSheet(name);
  if (sheet) {
    if (!root.adoptedStyleSheets.includes(sheet)) root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
    return;
  }
  if (root.querySelector(`style[data-sheet="${name}"]`)) return;
  const style = document.createElement('style');
  style.dataset.sheet = name;
  if (scriptNonce) style.nonce = scriptNonce;
  style.textContent = SHEETS[name];
  // The panel's rules come after the base ones, as in one sheet.
  const base = root.querySelector('style[data-sheet="base"]');
  if (base) base.after(style);
  else root.prepend(style);
}

/** The host, theme and launcher styles: every instance, at once. */
export const installStyles = (root: ShadowRoot) => install(root, 'base');

/** The panel's styles: the first time a panel is shown in this root. */
export const installPanelStyles = (root: ShadowRoot) => install(root, 'panel');
