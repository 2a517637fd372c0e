// Reads a page's preview from its HTML: Open Graph tags first, Twitter card tags next, then
// `<title>` and `<meta name="description">`. htmlparser2 streams through the markup (no DOM is
// built) and decodes entities in attributes and text.
import { Parser } from 'htmlparser2';
import type { OGAttachment } from 'stream-chat';

/** The preview `GET /og` answers with: the SDK's OGAttachment plus the site's name. */
export type LinkPreview = OGAttachment & { site_name?: string };

const MAX_TITLE = 300;
const MAX_TEXT = 1000;

export function parsePreview(html: string, page: URL, scrapeUrl: string): LinkPreview {
  const meta = new Map<string, string>();
  let title = '';
  let inTitle = false;
  let inBody = false;
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (name === 'body') inBody = true;
        if (name === 'title' && !inBody) inTitle = true;
        if (name !== 'meta') return;
        const key = (attributes.property ?? attributes.name ?? '').trim().toLowerCase();
        const content = attributes.content?.trim();
        // The first value wins: pages list og:image alternatives in order of preference.
        if (key && content && !meta.has(key)) meta.set(key, content);
      },
      ontext(text) {
        if (inTitle) title += text;
      },
      onclosetag(name) {
        if (name === 'title') inTitle = false;
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.write(html);
  parser.end();

  const first = (...keys: string[]) => keys.map((key) => meta.get(key)).find((value) => value);
  const link = (...keys: string[]) => absolute(first(...keys), page);
  const image = link('og:image', 'og:image:url', 'og:image:secure_url', 'twitter:image', 'twitter:image:src');
  const video = link('og:video:secure_url', 'og:video:url', 'og:video');
  const audio = link('og:audio:secure_url', 'og:audio:url', 'og:audio');
  const siteName = first('og:site_name', 'application-name');
  const preview: LinkPreview = {
    og_scrape_url: scrapeUrl,
    title: clip(first('og:title', 'twitter:title') ?? title, MAX_TITLE),
    title_link: link('og:url') ?? page.href,
    text: clip(first('og:description', 'twitter:description', 'description'), MAX_TEXT),
    image_url: image,
    thumb_url: image,
    asset_url: video ?? audio,
    author_name: siteName,
    author_link: siteName ? page.origin : undefined,
    site_name: siteName,
    type: video ? 'video' : audio ? 'audio' : first('og:type'),
  };
  return withoutEmpty(preview);
}

/** An image URL previews as the image itself. */
export function imagePreview(page: URL, scrapeUrl: string): LinkPreview {
  return { og_scrape_url: scrapeUrl, type: 'image', image_url: page.href, thumb_url: page.href, title_link: page.href };
}

/** True when there is something to show besides the link itself. */
export function hasContent(preview: LinkPreview): boolean {
  return Boolean(preview.title || preview.text || preview.image_url || preview.asset_url);
}

function absolute(value: string | undefined, base: URL): string | undefined {
  if (!value) return undefined;
  try {
    const url = new URL(value, base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

function clip(value: string | undefined, max: number): string | undefined {
  const text = value?.replace(/\s+/g, ' ').trim();
  if (!text) return undefined;
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function withoutEmpty(preview: LinkPreview): LinkPreview {
  return Object.fromEntries(Object.entries(preview).filter(([, value]) => value !== undefined && value !== '')) as LinkPreview;
}
