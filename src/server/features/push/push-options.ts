// Push delivery's settings (StartServerOptions.push), read by the worker and the device calls.
import type { DeliveryOptions } from '../../infra/delivery-options';

export type PushOptions = DeliveryOptions & {
  /** Receivers expanded per pass of the worker. Default 200. */
  receiversPerPass: number;
  /** Devices a user keeps; registering one more removes their oldest. Default 25 (the provider's). */
  maxDevicesPerUser: number;
};

/** Pushes are worth little late: five attempts from 1 s to a minute, then dropped. */
export const DEFAULT_PUSH_OPTIONS: PushOptions = {
  timeoutMs: 6000,
  maxAttempts: 5,
  baseDelayMs: 1000,
  maxDelayMs: 60_000,
  maxQueued: 100_000,
  receiversPerPass: 200,
  maxDevicesPerUser: 25,
};

export function pushOptions(ctx: { config: { push?: PushOptions } }): PushOptions {
  return ctx.config.push ?? DEFAULT_PUSH_OPTIONS;
}
