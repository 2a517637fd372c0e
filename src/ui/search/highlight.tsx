// The words a search matched, marked in the text it found. The backend matches the beginning
// of words, ignoring case and accents (FTS5 unicode61 with remove_diacritics), and so does
// this. Parts are rendered as text nodes inside <mark>: a result is never parsed as HTML.

/** Lower case without accents: "Café" and "CAFE" both read "cafe". */
export function fold(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/** The words of a query as the search compares them, longest first. */
export function queryWords(query: string): string[] {
  const words = new Set(fold(query).match(/[\p{L}\p{N}]+/gu) ?? []);
  return [...words].sort((a, b) => b.length - a.length);
}

export type TextPart = { text: string; match: boolean };

const WORD = /[\p{L}\p{N}\p{M}]+/gu;

/** `text` cut into parts; a matching part is the beginning of a word that a query word starts. */
export function highlightParts(text: string, words: string[]): TextPart[] {
  const parts: TextPart[] = [];
  let last = 0;
  if (words.length) {
    for (const found of text.matchAll(WORD)) {
      const word = found[0];
      const folded = fold(word);
      const hit = words.find((w) => folded.startsWith(w));
      if (!hit) continue;
      // Walk the original characters until they fold to the hit's length; accents that
      // follow a letter as combining marks stay with it.
      let length = 0;
      let covered = 0;
      for (const char of word) {
        const size = fold(char).length;
        if (covered >= hit.length && size > 0) break;
        covered += size;
        length += char.length;
      }
      const start = found.index;
      if (start > last) parts.push({ text: text.slice(last, start), match: false });
      parts.push({ text: text.slice(start, start + length), match: true });
      last = start + length;
    }
  }
  if (last < text.length) parts.push({ text: text.slice(last), match: false });
  return parts;
}

/**
 * At most `max` characters of `text`, starting a little before the first match so that it is
 * in view when a long message is cut.
 */
export function snippet(text: string, words: string[], max = 160): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const parts = highlightParts(flat, words);
  const matchAt = parts.findIndex((part) => part.match);
  const offset = matchAt < 0 ? 0 : parts.slice(0, matchAt).reduce((n, part) => n + part.text.length, 0);
  let start = Math.max(0, offset - 40);
  const space = start > 0 ? flat.indexOf(' ', start) : -1;
  if (space >= 0 && space < offset) start = space + 1;
  const cut = flat.slice(start, start + max);
  return `${start > 0 ? '…' : ''}${cut}${start + max < flat.length ? '…' : ''}`;
}

export function Highlight({ text, words }: { text: string; words: string[] }) {
  return (
    <>
      {highlightParts(text, words).map((part, i) =>
        part.match ? (
          <mark key={i} className="search-match">
            {part.text}
          </mark>
        ) : (
          part.text
        ),
      )}
    </>
  );
}
