// What makes a room big: more watching users than this. Each change a watcher would hear about
// every other (a join, a member coming online) then costs N frames, so a storm of N costs N²:
// watching events are coalesced there (watching.ts) and presence goes only to those who asked
// for it (presence.ts). See "Big rooms" in docs/design-decisions.md.
import type { ConnectionRegistry } from './registry';

export const BIG_ROOM_WATCHERS = 100;
/** A big room hears at most one watching event per channel in this time. */
export const WATCHING_COALESCE_MS = 1000;

export function isBigRoom(registry: ConnectionRegistry, cid: string): boolean {
  return registry.watcherCount(cid) > BIG_ROOM_WATCHERS;
}
