// Search's view, fetched the first time the visitor opens search. Here (the sources, tests) a
// dynamic import; the build replaces this module (build/fetch-on-first-use.mjs) with one that adds
// dist/chat-widget.search.js from beside the widget's script.
export type SearchPart = typeof import('./search-view');

export const loadSearch = (): Promise<SearchPart> => import('./search-view');
