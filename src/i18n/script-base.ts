// The address of the script that defined the widget, read while it runs (document.currentScript
// is null afterwards): the catalogues are fetched from its folder. Imported by the element's
// entry, which every build evaluates at load, so the deferred runtime reads it too.
export const SCRIPT_BASE: string =
  typeof document !== 'undefined' ? (document.currentScript as HTMLScriptElement | null)?.src || document.baseURI : '';
