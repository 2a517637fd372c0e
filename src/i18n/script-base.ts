// The address of the script that defined the widget: the catalogues are fetched from its folder.
// document.currentScript is set only while a script runs, so the element's entry, which every
// build runs at load, records it then (the runtime that reads it is evaluated later).
let base = '';

export function rememberScriptBase() {
  if (typeof document === 'undefined') return;
  base = (document.currentScript as HTMLScriptElement | null)?.src || document.baseURI;
}

/** Where the widget's script came from (the page's address for a bundled module). */
export const scriptBase = (): string => base || (typeof document === 'undefined' ? '' : document.baseURI);
