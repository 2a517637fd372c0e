import type { ErrorReason } from './events';

/** The element's attributes exactly as the page wrote them (undefined when absent). */
export interface RawAttributes {
  apiKey?: string;
  tokenEndpoint?: string;
  channel?: string;
  baseUrl?: string;
  mode?: string;
  open?: string;
  theme?: string;
  userName?: string;
  drafts?: string;
  launcher?: string;
  position?: string;
  guests?: string;
  locale?: string;
  translations?: string;
  notify?: string;
}

/** Attribute name → property name: the element's public attribute surface. */
export const ATTRIBUTES = {
  'api-key': 'apiKey',
  'token-endpoint': 'tokenEndpoint',
  channel: 'channel',
  'base-url': 'baseUrl',
  mode: 'mode',
  open: 'open',
  theme: 'theme',
  'user-name': 'userName',
  drafts: 'drafts',
  launcher: 'launcher',
  position: 'position',
  guests: 'guests',
  locale: 'locale',
  translations: 'translations',
  notify: 'notify',
} as const satisfies Record<string, keyof RawAttributes>;

export type AttributeName = keyof typeof ATTRIBUTES;

/** The attributes as an element carries them now (undefined where absent). */
export function readAttributes(el: Element): RawAttributes {
  const raw: RawAttributes = {};
  for (const [attribute, prop] of Object.entries(ATTRIBUTES)) raw[prop] = el.getAttribute(attribute) ?? undefined;
  return raw;
}

// The attributes that take one of a few words; the first is the default.
const CHOICES = {
  mode: ['bubble', 'inline'],
  theme: ['auto', 'light', 'dark'],
  launcher: ['bubble', 'none'],
  position: ['right', 'left'],
  guests: ['allow', 'none'],
} as const;
type Choice<K extends keyof typeof CHOICES> = (typeof CHOICES)[K][number];

export type Mode = Choice<'mode'>;
export type Theme = Choice<'theme'>;

export interface ChannelRef {
  type: string;
  id: string;
}

export interface WidgetConfig {
  apiKey: string;
  tokenEndpoint: string | null;
  channel: ChannelRef | null;
  baseUrl: string | null;
  userName: string | null;
  /** Save drafts to the backend and restore them (off by default, as in the spec). */
  drafts: boolean;
}

/** What the panel needs to draw itself even when the configuration is bad. */
export interface Presentation {
  mode: Mode;
  open: boolean;
  theme: Theme;
}

/** Where the bubble mode's parts sit: the element's concern, not the panel's. */
export interface Placement {
  /** `none`: no built-in bubble; the site opens the panel from its own button. */
  launcher: Choice<'launcher'>;
  /** The corner of the bubble and the floating panel. */
  position: Choice<'position'>;
  /** `none`: without a token endpoint (signed out) the chat is closed instead of a guest's. */
  guests: Choice<'guests'>;
}

/** Whether the panel is on screen: an open bubble, or inline, which is always shown. */
export const panelShown = ({ mode, open }: Pick<Presentation, 'mode' | 'open'>): boolean => open || mode === 'inline';

export interface ConfigError {
  reason: ErrorReason;
  message: string;
}

export type ParsedAttributes = Presentation &
  Placement &
  ({ ok: true; config: WidgetConfig } | { ok: false; error: ConfigError });

// Stream's id alphabet: letters, digits, `-`, `_` and `!` (ids like `!members-…`).
const CHANNEL_ID = /^[\w!-]{1,64}$/;
const CHANNEL_TYPE = /^[\w-]{1,64}$/;

/** A boolean attribute is on when present, unless it says "false" (`open="false"`). */
export const parseBoolean = (value: string | undefined) => value !== undefined && value !== 'false';

export function parseChannel(value: string): ChannelRef | ConfigError {
  const invalid = (why: string): ConfigError => ({
    reason: 'invalid-channel',
    message: `The channel "${value}" is not valid: ${why}`,
  });
  const parts = value.trim().split(':');
  if (parts.length > 2) return invalid('a channel type or id cannot contain a colon.');
  const [type, id] = parts.length === 2 ? parts : ['messaging', parts[0]];
  if (!type || !id) return invalid('write it as type:id, for example messaging:support.');
  if (!CHANNEL_TYPE.test(type)) return invalid(`the type "${type}" may use only letters, digits, - and _.`);
  if (!CHANNEL_ID.test(id)) return invalid(`the id "${id}" may use only letters, digits, !, - and _ (at most 64).`);
  return { type, id };
}

function parseUrl(value: string, reason: ErrorReason, label: string): string | ConfigError {
  try {
    const url = new URL(value, document.baseURI);
    if (url.protocol === 'http:' || url.protocol === 'https:') return url.href;
  } catch {
    // fall through to the readable error below
  }
  return { reason, message: `The ${label} "${value}" is not an http(s) URL.` };
}

const isError = (value: unknown): value is ConfigError =>
  typeof value === 'object' && value !== null && 'reason' in value;

/**
 * Turns the raw attributes into a configuration, or the first readable error.
 * Presentation always has a usable value so the error itself can be shown.
 */
export function parseAttributes(raw: RawAttributes): ParsedAttributes {
  const errors: ConfigError[] = [];
  // A word not in the list is reported (the first one wins), and the default stands in.
  const choose = <K extends keyof typeof CHOICES>(name: K): Choice<K> => {
    const choices: readonly Choice<K>[] = CHOICES[name];
    const value = (raw[name] || choices[0]) as Choice<K>;
    if (choices.includes(value)) return value;
    const words = choices.map((word) => `"${word}"`);
    const message = `The ${name} "${value}" is not valid: use ${words.slice(0, -1).join(', ')} or ${words.at(-1)}.`;
    errors.push({ reason: `invalid-${name}`, message });
    return choices[0] as Choice<K>;
  };
  const presentation: Presentation & Placement = {
    mode: choose('mode'),
    theme: choose('theme'),
    launcher: choose('launcher'),
    position: choose('position'),
    guests: choose('guests'),
    open: parseBoolean(raw.open),
  };
  const fail = (error: ConfigError): ParsedAttributes => ({ ...presentation, ok: false, error });

  if (errors[0]) return fail(errors[0]);
  const apiKey = raw.apiKey?.trim();
  if (!apiKey) {
    return fail({ reason: 'missing-api-key', message: 'The api-key attribute is missing: set it to your Stream app key.' });
  }
  const channel = raw.channel?.trim() ? parseChannel(raw.channel) : null;
  if (isError(channel)) return fail(channel);
  const baseUrl = raw.baseUrl?.trim() ? parseUrl(raw.baseUrl.trim(), 'invalid-base-url', 'base-url') : null;
  if (isError(baseUrl)) return fail(baseUrl);
  // The SDK appends paths to the base URL, so it must not end with a slash.
  const apiBase = baseUrl?.replace(/\/+$/, '') ?? null;
  const tokenEndpoint = raw.tokenEndpoint?.trim()
    ? parseUrl(raw.tokenEndpoint.trim(), 'invalid-token-endpoint', 'token-endpoint')
    : null;
  if (isError(tokenEndpoint)) return fail(tokenEndpoint);

  return {
    ...presentation,
    ok: true,
    config: {
      apiKey,
      tokenEndpoint,
      channel,
      baseUrl: apiBase,
      userName: raw.userName?.trim() || null,
      drafts: parseBoolean(raw.drafts),
    },
  };
}

/** `notify="title sound"`: what tells a visitor who is elsewhere that an answer came. */
export interface NotifyOptions {
  title: boolean;
  sound: boolean;
}

/** The words of the `notify` attribute; anything else in it is ignored. */
export function parseNotify(value: string | undefined): NotifyOptions {
  const words = new Set((value ?? '').toLowerCase().split(/\s+/));
  return { title: words.has('title'), sound: words.has('sound') };
}
