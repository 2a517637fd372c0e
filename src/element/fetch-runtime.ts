// The loader's runtime source: the full file (chat-widget.js, from the loader's own folder, with
// the loader's query so versions match) added as a script when the chat is wanted or about to be
// (a pointer on the bubble, focus, a touch), and downloaded into the cache at the page's first
// idle moment after load (prefetchWhenIdle). Run on a page whose `<chat-widget>` the loader
// defined, the full file hands over its runtime by a document event (entries/chat-widget.ts), heard
// from the loader's start: a page that also includes the full file itself does not run it
// twice. Where the page's CSP gives scripts a nonce, what the loader adds carries the loader's.
import { RUNTIME_EVENT, type ChatRuntime, type RuntimeSource } from '../contract/runtime';
import { whenIdle } from '../browser/when-idle';

const loader = typeof document !== 'undefined' ? (document.currentScript as HTMLScriptElement | null) : null;

function fullFile(): string {
  const here = new URL(loader?.src || document.baseURI);
  const url = new URL('chat-widget.js', here);
  url.search = here.search;
  return url.href;
}

let handedOver: RuntimeSource | undefined;
const heard: Array<(source: RuntimeSource) => void> = [];

/** Listens, from the loader's start, for a full file handing over its runtime. */
export function listenForRuntime() {
  document.addEventListener(RUNTIME_EVENT, (event) => {
    handedOver ??= (event as CustomEvent<RuntimeSource>).detail;
    for (const resolve of heard.splice(0)) resolve(handedOver);
  });
}

let loading: Promise<ChatRuntime> | undefined;

export function fetchRuntime(): Promise<ChatRuntime> {
  loading ??= new Promise<RuntimeSource>((resolve, reject) => {
    if (handedOver) return resolve(handedOver);
    const url = fullFile();
    heard.push(resolve);
    // The page may carry the full file itself, still to run (a deferred script): wait for it.
    const own = [...document.scripts].find((tag) => tag !== loader && /\/chat-widget\.js$/.test(new URL(tag.src || 'x:', document.baseURI).pathname));
    const script = own ?? document.createElement('script');
    const fail = (message: string) => {
      heard.splice(heard.indexOf(resolve), 1);
      if (!own) script.remove(); // a retry adds a fresh one
      reject(new Error(message));
    };
    script.addEventListener('error', () => fail(`${script.src} could not be loaded.`));
    // A file that ran without handing over its runtime is not this widget's full file.
    script.addEventListener('load', () => handedOver || fail(`${script.src} did not start the chat.`));
    if (own) return;
    script.src = url;
    script.async = true;
    if (loader?.nonce) script.nonce = loader.nonce;
    document.head.append(script);
  })
    .then((source) => source())
    .catch((error: unknown) => {
      loading = undefined; // the next wish tries again
      throw error;
    });
  return loading;
}

/** How long after the page's load event an idle moment may prefetch the full file. */
const PREFETCH_AFTER_MS = 3000;

/** A visitor who asked to save data, or on a 2G link, downloads the chat only when reaching for it. */
function savingData(): boolean {
  const connection = (navigator as Navigator & { connection?: { saveData?: boolean; effectiveType?: string } }).connection;
  return Boolean(connection?.saveData) || /2g/.test(connection?.effectiveType ?? '');
}

/**
 * Once the page has loaded, a few seconds have passed and the browser is idle, the full file is
 * downloaded (not run) into the cache, so a first click after a quick hover does not wait for the
 * network. Not earlier: the request and the response's tasks cost the page's main thread some
 * 40-60 ms at 4x CPU, which a page still loading should not pay for a chat nobody has asked for.
 * A hidden tab waits until it is shown; a page that needs no prefetch can say so with
 * `data-prefetch="intent"` on the loader's script tag.
 */
export function prefetchWhenIdle() {
  if (loader?.dataset.prefetch === 'intent' || savingData()) return;
  const prefetch = () => {
    if (handedOver || loading) return;
    if (document.visibilityState === 'hidden') {
      document.addEventListener('visibilitychange', () => idle(), { once: true });
      return;
    }
    const link = document.createElement('link');
    link.rel = 'prefetch';
    link.as = 'script';
    link.href = fullFile();
    if (loader?.nonce) link.nonce = loader.nonce;
    document.head.append(link);
  };
  const idle = () => whenIdle(prefetch);
  const later = () => setTimeout(idle, PREFETCH_AFTER_MS);
  if (document.readyState === 'complete') later();
  else window.addEventListener('load', later, { once: true });
}
