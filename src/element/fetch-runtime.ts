// The loader's runtime source: the full file (chat-widget.js, from the loader's own folder, with
// the loader's query so versions match) added as a script when the chat is wanted or about to be
// (a pointer on the bubble, focus, a touch). Run on a page whose `<chat-widget>` the loader
// defined, the full file hands over its runtime by a document event (element/index.ts), heard
// from the loader's start: a page that also includes the full file itself does not run it
// twice. Where the page's CSP gives scripts a nonce, what the loader adds carries the loader's.
// Nothing is fetched before that: not even an idle prefetch, whose request alone cost the page
// some 50 ms of main-thread tasks at 4x CPU (a site that wants one adds `<link rel="prefetch">`).
import { RUNTIME_EVENT, type ChatRuntime, type RuntimeSource } from './runtime-contract';

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
