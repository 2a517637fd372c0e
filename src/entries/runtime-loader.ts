// Loads the chat's runtime (runtime.ts) the first time it is wanted. Here it is a dynamic
// import; the bundle replaces this module (build/defer-runtime.mjs) with one that keeps the
// runtime's code in the same file, inside a function that is called only now: a closed bubble
// then pays for the launcher alone, not for evaluating stream-chat.
export type Runtime = typeof import('./runtime');

let loaded: Runtime | undefined;

export async function loadRuntime(): Promise<Runtime> {
  loaded ??= await import('./runtime');
  return loaded;
}
