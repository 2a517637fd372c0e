import { useState } from 'react';
import type { Attachment, LocalMessage } from 'stream-chat';
import type { Text } from '../../i18n/translate';
import { runGiphyAction, type GiphyActionValue } from '../../session/message-actions';
import { useChatClient } from '../common/chat-client';
import { safeUrl } from '../common/format';
import { useLocalization } from '../common/localization';

/** The `/giphy` preview only its sender sees: its attachment carries the Send, Shuffle, Cancel actions. */
export const giphyPreviewOf = (message: LocalMessage) =>
  message.type === 'ephemeral' ? message.attachments?.find((a) => a.type === 'giphy' && a.actions?.length) : undefined;

/** A GIF, sized from its fixed_height rendition before it loads, with its title (the search). */
export function GiphyImage({ attachment: a }: { attachment: Attachment }) {
  const shown = a.giphy?.fixed_height;
  const src = safeUrl(a.thumb_url) ?? safeUrl(shown?.url);
  const w = Number(shown?.width);
  const h = Number(shown?.height);
  const scale = w > 0 && h > 0 ? Math.min(1, 240 / w, 240 / h) : 0;
  return src ? (
    <figure className="giphy" part="giphy-attachment">
      <img className="attachment-image" src={src} alt={a.title || 'GIF'} width={scale ? Math.round(w * scale) : 240} height={scale ? Math.round(h * scale) : 180} loading="lazy" decoding="async" />
      {a.title && <figcaption aria-hidden="true">{a.title}</figcaption>}
    </figure>
  ) : null;
}

const BUTTONS: Array<[GiphyActionValue, 'message.giphySend' | 'message.giphyShuffle' | 'message.giphyCancel']> = [
  ['send', 'message.giphySend'],
  ['shuffle', 'message.giphyShuffle'],
  ['cancel', 'message.giphyCancel'],
];

/** The preview: the GIF, who sees it, and its three buttons (each one channel.sendAction). */
export function GiphyPreview({ message, attachment }: { message: LocalMessage; attachment: Attachment }) {
  const { t } = useLocalization();
  const client = useChatClient();
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState<Text | null>(null);
  const channel = message.cid ? client?.activeChannels[message.cid] : undefined;
  const run = (value: GiphyActionValue) => {
    if (!channel) return;
    setBusy(true);
    setFailed(null);
    void runGiphyAction(channel, message, value).then((problem) => {
      setBusy(false);
      setFailed(problem);
    });
  };
  return (
    <div className="giphy-preview" part="giphy-preview" role="group" aria-label={t('message.giphyPreview')}>
      <span className="message-edited">{t('message.giphyPreview')}</span>
      <GiphyImage attachment={attachment} />
      <div className="giphy-actions">
        {BUTTONS.map(([value, key]) => (
          <button key={value} type="button" className={`button small${value === 'send' ? '' : ' secondary'}`} part={`giphy-${value}`} disabled={busy || !channel} onClick={() => run(value)}>
            {t(key)}
          </button>
        ))}
      </div>
      {failed && (
        <span className="message-state message-failed" role="alert">
          {t(failed.key, failed.params)}
        </span>
      )}
    </div>
  );
}
