// The loader's runtime source: the full file (chat-widget.js, from the loader's own folder)
// added as a script when the chat is wanted or about to be (a pointer on the bubble, focus, a
// touch). Run on a page whose `<chat-widget>` the loader defined, the full file hands over its
// runtime by a document event (element/index.ts). Where the page's CSP gives scripts a nonce,
// the added script carries the loader's.
import { RUNTIME_EVENT, type ChatRuntime, type RuntimeSource } from './runtime-contract';

const loader = typeof document !== 'undefined' ? (document.currentScript as HTMLScriptElement | null) : null;
const fullFile = (): string => new URL('chat-widget.js', loader?.src || document.baseURI).href;

let loading: Promise<ChatRuntime> | undefined;

export function fetchRuntime(): Promise<ChatRuntime> {
  loading ??= new Promise<RuntimeSource>((resolve, reject) => {
    const url = fullFile();
    const handOver = (event: Event) => resolve((event as CustomEvent<RuntimeSource>).detail);
    document.addEventListener(RUNTIME_EVENT, handOver, { once: true });
    const script = document.createElement('script');
    script.src = url;
    script.async = true;
    if (loader?.nonce) script.nonce = loader.nonce;
    script.addEventListener('error', () => reject(new Error(`${url} could not be loaded.`)));
    // A file that ran without handing over its runtime is not this widget's full file.
    script.addEventListener('load', () => reject(new Error(`${url} did not start the chat.`)));
    document.head.append(script);
  })
    .then((source) => source())
    .catch((error: unknown) => {
      loading = undefined; // the next wish tries again
      throw error;
    });
  return loading;
}

/**
 * Once the page has loaded and the browser is idle, the full file is downloaded (not run) into
 * the cache, so a first click does not wait for the network. No main-thread work: a prefetch.
 */
export function prefetchWhenIdle() {
  const prefetch = () => {
    const link = document.createElement('link');
    link.rel = 'prefetch';
    link.as = 'script';
    link.href = fullFile();
    document.head.append(link);
  };
  const whenIdle = () => (window.requestIdleCallback ?? ((run: () => void) => setTimeout(run, 1)))(prefetch);
  if (document.readyState === 'complete') whenIdle();
  else window.addEventListener('load', whenIdle, { once: true });
}
