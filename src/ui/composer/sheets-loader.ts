// The poll and location sheets, fetched the first time one is opened. Here (the sources, tests)
// a dynamic import; the build replaces this module (build/fetch-on-first-use.mjs) with one that
// adds dist/chat-widget.sheets.js from beside the widget's script.
export type SheetsPart = typeof import('./sheets');

export const loadSheets = (): Promise<SheetsPart> => import('./sheets');
