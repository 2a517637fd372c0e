// The bounds of POST /sync and its event log (StartServerOptions.sync).
export type SyncSettings = {
  /** Events kept at most (the oldest go first, in batches of a tenth). Default 50,000. */
  logMaxEvents: number;
  /** Events older than this are dropped. Default 30 days, the provider's sync window. */
  logMaxAgeMs: number;
  /** A sync that would return more events than this is refused (code 4). Default 2,000. */
  maxEventsPerSync: number;
};

/** The provider refuses a `last_sync_at` older than 30 days. */
export const SYNC_WINDOW_MS = 30 * 24 * 60 * 60 * 1000;

export const DEFAULT_SYNC_SETTINGS: SyncSettings = {
  logMaxEvents: 50_000,
  logMaxAgeMs: SYNC_WINDOW_MS,
  maxEventsPerSync: 2_000,
};

export function syncSettings(ctx: { config: { sync?: SyncSettings } }): SyncSettings {
  return ctx.config.sync ?? DEFAULT_SYNC_SETTINGS;
}
