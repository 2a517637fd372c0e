// The provider's own blocklists, which every app has beside the ones it creates: listed by
// `GET /blocklists`, readable, usable as a channel type's `blocklist`, but neither updatable nor
// deletable. The provider documents one, `profanity_en_2020_v1` ("over a thousand of the most
// common profane words"). Its words here are a short stand-in for that list, enough for a site to
// see the behaviour offline; the hosted list matches far more.

/** A blocklist, the app's own as stored (store/blocklists.ts) or built in. */
export type BlocklistRow = { name: string; type: string; words: string; created_at: string; updated_at: string };

/** When the built-in lists count as created and updated: fixed, as they never change. */
const BUILT_AT = '2020-01-01T00:00:00.000Z';

const builtin = (name: string, words: string[]): BlocklistRow => ({
  name,
  type: 'word',
  words: JSON.stringify(words),
  created_at: BUILT_AT,
  updated_at: BUILT_AT,
});

export const BUILTIN_BLOCKLISTS: readonly BlocklistRow[] = [
  // A short stand-in for the provider's English profanity list (lower case, as blocklist words are).
  builtin('profanity_en_2020_v1', [
    'arse', 'arsehole', 'asshole', 'bastard', 'bitch', 'bollocks', 'bullshit', 'cock', 'crap', 'cunt',
    'dick', 'dickhead', 'fuck', 'fucked', 'fucker', 'fucking', 'motherfucker', 'piss', 'prick', 'shit',
    'shitty', 'slut', 'twat', 'wanker', 'whore',
  ]),
];

const BY_NAME = new Map(BUILTIN_BLOCKLISTS.map((row) => [row.name, row]));

export function builtinBlocklist(name: string): BlocklistRow | undefined {
  return BY_NAME.get(name);
}
