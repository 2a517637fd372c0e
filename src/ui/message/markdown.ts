import { find } from 'linkifyjs';

// A small markdown subset parsed into a tree that the panel renders as elements and text
// nodes: message text never reaches the DOM as markup, whatever it contains.

export type Inline =
  | { t: 'text'; v: string }
  | { t: 'bold'; c: Inline[] }
  | { t: 'italic'; c: Inline[] }
  | { t: 'code'; v: string }
  | { t: 'link'; v: string; href: string }
  | { t: 'mention'; v: string; userId: string };

export type Block =
  | { t: 'p'; lines: Inline[][] }
  | { t: 'pre'; v: string }
  | { t: 'ul'; items: Inline[][] }
  | { t: 'ol'; items: Inline[][]; start: number };

export interface MentionedUser {
  id: string;
  name?: string;
}

type Part = Inline | string;
type Rule = (text: string) => Part[];

/** Splits `text` wherever `pattern` matches, turning each match into a token. */
function splitBy(pattern: RegExp, token: (match: RegExpExecArray) => Inline | null): Rule {
  return (text) => {
    const parts: Part[] = [];
    let last = 0;
    for (const match of text.matchAll(new RegExp(pattern.source, 'g'))) {
      const made = token(match as RegExpExecArray);
      if (!made) continue;
      parts.push(text.slice(last, match.index), made);
      last = match.index + match[0].length;
    }
    parts.push(text.slice(last));
    return parts.filter((part) => part !== '');
  };
}

const codeSpans = splitBy(/`([^`\n]+)`/, (m) => ({ t: 'code', v: m[1] ?? '' }));

// The spec's link rule: only hosts of the form name.tld (no bare "localhost", no IPs).
const NAME_DOT_TLD = /^(?:[a-z0-9-]+\.)+[a-z]{2,}$/i;

const safeHref = (href: string) => {
  try {
    const url = new URL(href);
    const web = url.protocol === 'http:' || url.protocol === 'https:';
    return web && NAME_DOT_TLD.test(url.hostname) ? url.href : null;
  } catch {
    return null;
  }
};

/**
 * A link needs a dot before a letter (name.tld, the TLD never a digit): text without one is not
 * scanned, and linkify's scanner (its TLD table decoded on first use, about 5 ms of a first open)
 * is built only for the first message that may hold a link.
 */
const MAY_LINK = /\.\p{L}/u;

const links: Rule = (text) => {
  if (!MAY_LINK.test(text)) return [text];
  const parts: Part[] = [];
  let last = 0;
  for (const match of find(text, 'url')) {
    const href = safeHref(match.href);
    if (!href) continue;
    parts.push(text.slice(last, match.start), { t: 'link', v: match.value, href });
    last = match.end;
  }
  parts.push(text.slice(last));
  return parts.filter((part) => part !== '');
};

const escapeRegExp = (value: string) => value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `@name` or `@id` of a user the message mentions; longer names first so "@Ann Lee" beats "@Ann". */
function mentions(users: MentionedUser[]): Rule {
  const names = users
    .flatMap((user) => [user.name, user.id].filter(Boolean).map((label) => ({ label: label as string, id: user.id })))
    .sort((a, b) => b.label.length - a.label.length);
  if (names.length === 0) return (text) => [text];
  const pattern = new RegExp(`@(${names.map((n) => escapeRegExp(n.label)).join('|')})(?![\\w])`);
  return splitBy(pattern, (m) => {
    const hit = names.find((n) => n.label === m[1]);
    return hit ? { t: 'mention', v: `@${m[1]}`, userId: hit.id } : null;
  });
}

const italic = splitBy(/(?<![\w*])\*(?!\s)([^*\n]+?)(?<!\s)\*(?![\w*])|(?<!\w)_(?!\s)([^_\n]+?)(?<!\s)_(?!\w)/, (m) => ({
  t: 'italic',
  c: [{ t: 'text', v: m[1] ?? m[2] ?? '' }],
}));

const bold = splitBy(/\*\*(?!\s)(.+?)(?<!\s)\*\*/, (m) => ({ t: 'bold', c: inline(m[1] ?? '', [italic]) }));

function inline(text: string, rules: Rule[]): Inline[] {
  const [rule, ...rest] = rules;
  if (!rule) return text ? [{ t: 'text', v: text }] : [];
  return rule(text).flatMap((part) => (typeof part === 'string' ? inline(part, rest) : [part]));
}

export function parseInline(text: string, users: MentionedUser[] = []): Inline[] {
  return inline(text, [codeSpans, links, mentions(users), bold, italic]);
}

const FENCE = /^\s*```/;
const BULLET = /^\s*[-*•]\s+(.*)$/;
const NUMBERED = /^\s*(\d{1,9})[.)]\s+(.*)$/;

/** Paragraphs, fenced code blocks, and bulleted or numbered lists. */
export function parseMarkdown(text: string, users: MentionedUser[] = []): Block[] {
  const blocks: Block[] = [];
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  let paragraph: Inline[][] = [];
  const endParagraph = () => {
    if (paragraph.length) blocks.push({ t: 'p', lines: paragraph });
    paragraph = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    if (FENCE.test(line)) {
      endParagraph();
      const code: string[] = [];
      while (++i < lines.length && !FENCE.test(lines[i] as string)) code.push(lines[i] as string);
      blocks.push({ t: 'pre', v: code.join('\n') });
      continue;
    }
    const bullet = BULLET.exec(line);
    const numbered = NUMBERED.exec(line);
    if (bullet || numbered) {
      endParagraph();
      const previous = blocks.at(-1);
      if (bullet) {
        const item = parseInline(bullet[1] ?? '', users);
        if (previous?.t === 'ul') previous.items.push(item);
        else blocks.push({ t: 'ul', items: [item] });
      } else if (numbered) {
        const item = parseInline(numbered[2] ?? '', users);
        if (previous?.t === 'ol') previous.items.push(item);
        else blocks.push({ t: 'ol', items: [item], start: Number(numbered[1]) });
      }
      continue;
    }
    if (!line.trim()) endParagraph();
    else paragraph.push(parseInline(line, users));
  }
  endParagraph();
  return blocks;
}
