// A part of the chat few visitors use (the voice recorder, the poll and location forms, the side
// views) is a script of its own beside the widget's (build/fetch-on-first-use.mjs makes it), added
// the first time it is wanted. It holds only its own modules: what it uses of the page's (Preact,
// the panel's helpers) the page hands it, as a list the build wrote on both sides. The script
// hands over a function by a document event, under a signature of that list and of its own code:
// a stale or foreign copy is never started.

/** The event a part's script dispatches on the document when it runs. */
export const PART_EVENT = 'chat-widget-part';

export interface PartHandover {
  signature: string;
  start: (shared: unknown[]) => unknown;
}

const parts = new Map<string, Promise<unknown>>();

/**
 * The part at `url`, started with `shared`, once per page; a failure is forgotten so the next
 * wish tries again. `nonce`: the page's nonce for the widget's script, where it has one.
 */
export function fetchPart<T>(url: string, signature: string, shared: () => unknown[], nonce = ''): Promise<T> {
  let pending = parts.get(signature) as Promise<T> | undefined;
  if (pending) return pending;
  pending = new Promise<T>((resolve, reject) => {
    const script = document.createElement('script');
    let started = false;
    const heard = (event: Event) => {
      const handover = (event as CustomEvent<PartHandover>).detail;
      if (handover?.signature !== signature || started) return;
      started = true;
      try {
        resolve(handover.start(shared()) as T);
      } catch (error) {
        reject(error);
      }
    };
    const done = (error?: string) => {
      document.removeEventListener(PART_EVENT, heard);
      script.remove();
      if (!started) reject(new Error(error ?? `${url} is not the part this widget expects (a different version?).`));
    };
    document.addEventListener(PART_EVENT, heard);
    script.addEventListener('load', () => done());
    script.addEventListener('error', () => done(`${url} could not be loaded.`));
    script.src = url;
    script.async = true;
    if (nonce) script.nonce = nonce;
    document.head.append(script);
  });
  pending.catch(() => parts.delete(signature));
  parts.set(signature, pending);
  return pending;
}
