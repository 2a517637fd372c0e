import type { Attachment } from 'stream-chat';
import { formatBytes, hideBroken, hostOf, safeUrl } from '../common/format';
import { FileIcon } from '../common/icons';
import { useLocalization } from '../common/localization';
import { GiphyImage } from './giphy';
import { VoicePlayer } from './voice-player';

// Media boxes are sized from the attachment's own numbers before anything loads, so the list
// never jumps (and the windowed list's measured row heights stay true).
const MAX = 240;

function fitBox(width: unknown, height: unknown): { width: number; height: number } {
  const w = Number(width);
  const h = Number(height);
  if (!(w > 0 && h > 0)) return { width: MAX, height: 160 };
  const scale = Math.min(1, MAX / w, MAX / h);
  return { width: Math.max(1, Math.round(w * scale)), height: Math.max(1, Math.round(h * scale)) };
}

const NEW_TAB = { target: '_blank', rel: 'noopener noreferrer nofollow ugc' } as const;

function One({ attachment: a }: { attachment: Attachment }) {
  const asset = safeUrl(a.asset_url);
  const image = safeUrl(a.image_url) ?? safeUrl(a.thumb_url);
  const size = fitBox(a.original_width, a.original_height);
  const name = a.title || a.fallback;
  const { t, locale } = useLocalization();
  if (a.type === 'giphy') return <GiphyImage attachment={a} />;
  if (a.og_scrape_url || a.title_link) {
    const href = safeUrl(a.title_link) ?? safeUrl(a.og_scrape_url);
    return href ? (
      <a className="link-card" part="link-card" href={href} {...NEW_TAB}>
        {image && <img className="link-card-image" src={image} alt="" width={MAX} height={120} loading="lazy" onError={hideBroken} />}
        <span className="link-card-body">
          <span className="link-card-site">{a.author_name || hostOf(href)}</span>
          {a.title && <span className="link-card-title">{a.title}</span>}
          {a.text && <span className="link-card-text">{a.text}</span>}
        </span>
      </a>
    ) : null;
  }
  if (a.type === 'video' && asset) return <video className="attachment-video" part="video-attachment" src={asset} controls preload="metadata" {...size} />;
  if (a.type === 'voiceRecording' && asset) return <VoicePlayer src={asset} duration={a.duration} waveform={a.waveform_data} />;
  if (a.type === 'audio' && asset) {
    return (
      <div className="attachment-audio" part="audio-attachment">
        <span className="attachment-audio-title">{name || t('message.audio')}</span>
        <audio src={asset} controls preload="none" />
      </div>
    );
  }
  if (a.type === 'image' && image) {
    return (
      <a className="attachment-image-link" href={image} {...NEW_TAB} aria-label={t('message.openImage', { name: name || t('message.image') })}>
        <img className="attachment-image" part="image-attachment" src={image} alt={name || t('message.image')} {...size} loading="lazy" decoding="async" />
      </a>
    );
  }
  const url = asset ?? image;
  return url ? (
    <a className="file-card" part="file-attachment" href={url} download={name || 'file'} {...NEW_TAB}>
      <span className="file-card-icon" aria-hidden="true">
        <FileIcon />
      </span>
      <span className="file-card-text">
        <span className="file-card-name">{name || t('message.file')}</span>
        <span className="file-card-size">{[formatBytes(a.file_size, locale), t('message.download')].filter(Boolean).join(' · ')}</span>
      </span>
    </a>
  ) : null;
}

/** A message's attachments: images, video, audio, voice recordings, files and link cards. */
export function MessageAttachments({ attachments }: { attachments: Attachment[] | undefined }) {
  if (!attachments?.length) return null;
  return (
    <div className="attachments" part="attachments">
      {attachments.map((attachment, index) => (
        <One key={index} attachment={attachment} />
      ))}
    </div>
  );
}
