// The side views, fetched the first time one is opened. Here (the sources, tests) a dynamic
// import; the build replaces this module (build/fetch-on-first-use.mjs) with one that adds
// dist/chat-widget.views.js from beside the widget's script.
export type SideViewsPart = typeof import('./side-views');

export const loadSideViews = (): Promise<SideViewsPart> => import('./side-views');
