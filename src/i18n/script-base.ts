// The address of the script that defined the widget: the catalogues are fetched from its folder.
// document.currentScript is set only while a script runs, so the element's entry, which every
// build runs at load, records it then (the runtime that reads it is evaluated later), with the
// nonce a strict page gave it, which the scripts the widget adds later carry too.
let base = '';
let address = '';
let nonce = '';

export function rememberScriptBase() {
  if (typeof document === 'undefined') return;
  const script = document.currentScript as HTMLScriptElement | null;
  address = script?.src ?? '';
  base = address || document.baseURI;
  nonce = script?.nonce ?? '';
}

/** The widget's script's own address, where it was loaded by a script tag (null for a bundled module). */
export const scriptAddress = (): string | null => address || null;

/** Where the widget's script came from (the page's address for a bundled module). */
export const scriptBase = (): string => base || (typeof document === 'undefined' ? '' : document.baseURI);

/** The nonce the page gave the widget's script (empty without one): what the widget adds carries it. */
export const scriptNonce = (): string => nonce;
