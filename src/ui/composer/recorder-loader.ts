// The voice recorder, fetched the first time a visitor reaches for the microphone. Here (the
// sources, tests) a dynamic import; the build replaces this module (build/fetch-on-first-use.mjs)
// with one that adds dist/chat-widget.recorder.js, from beside the widget's script as the
// catalogues are, and hands it the page's modules it uses: the single file carries no recorder.
export type RecorderPart = typeof import('./recorder/voice-recorder');

export const loadRecorder = (): Promise<RecorderPart> => import('./recorder/voice-recorder');
