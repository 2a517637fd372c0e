import { memo } from 'react';
import type { AttachmentManager, AttachmentManagerState, LocalAttachment, LocalUploadAttachment } from 'stream-chat';
import { isLocalUploadAttachment } from 'stream-chat';
import { useStateStore } from '../../session/use-state-store';
import type { Translate } from '../../i18n/translate';
import { formatBytes, safeUrl } from '../common/format';
import { CloseIcon, FileIcon } from '../common/icons';
import { useLocalization } from '../common/localization';
import { minutes, VoicePlayer } from '../message/voice-player';
import { blockedReason } from './notifications';
import type { WaitingUpload } from '../../session/composer-setup';

const selectAttachments = (state: AttachmentManagerState) => ({ attachments: state.attachments });

const attachmentName = (attachment: LocalAttachment) =>
  attachment.title || attachment.fallback || (isLocalUploadAttachment(attachment) ? attachment.localMetadata.file.name : '') || '';

/** What the SDK says about one attachment's upload, in words. */
function statusText(t: Translate, locale: string, attachment: LocalAttachment): string {
  const meta = attachment.localMetadata as Partial<LocalUploadAttachment['localMetadata']>;
  const percent = meta.uploadConfirmationPending ? undefined : meta.uploadProgress;
  switch (meta.uploadState) {
    case 'pending':
      return t('composer.waiting');
    case 'uploading':
      return percent === undefined ? t('composer.uploading') : t('composer.uploadingPercent', { percent });
    case 'failed':
      return t((meta as WaitingUpload).waitingForNetwork ? 'composer.waitingForNetwork' : 'composer.uploadFailed');
    case 'blocked':
      return t('composer.blocked', { why: blockedReason(meta.uploadPermissionCheck?.reason) ?? { key: 'composer.blockedUnknown' } });
    default:
      return formatBytes(attachment.file_size, locale);
  }
}

function Thumbnail({ attachment }: { attachment: LocalAttachment }) {
  const preview = (attachment.localMetadata as Partial<LocalUploadAttachment['localMetadata']>).previewUri;
  const src = attachment.type === 'image' ? safeUrl(preview, true) ?? safeUrl(attachment.image_url) : undefined;
  if (src) return <img className="attachment-thumb" src={src} alt="" width={40} height={40} />;
  return (
    <span className="attachment-thumb file" aria-hidden="true">
      <FileIcon />
    </span>
  );
}

/** A recorded voice message, to listen back to before sending: from the browser's copy until the upload is done. */
function VoicePreview({ attachment }: { attachment: LocalAttachment }) {
  const src = safeUrl((attachment.localMetadata as Partial<LocalUploadAttachment['localMetadata']>).previewUri, true) ?? safeUrl(attachment.asset_url);
  // A new player when the source changes (the upload is done): a media element says nothing when its source goes.
  return src ? <VoicePlayer key={src} src={src} duration={attachment.duration} waveform={attachment.waveform_data} /> : null;
}

/**
 * The files attached to what is being written, each with the upload state the SDK's attachment
 * manager gives it: waiting, uploading (with progress), ready, failed (retry) or blocked by the
 * app's upload settings (with the reason). Each can be removed, which also cancels its upload.
 * A voice message shows its player instead of its name.
 */
export const AttachmentPreviews = memo(function AttachmentPreviews({ manager }: { manager: AttachmentManager }) {
  const { attachments } = useStateStore(manager.state, selectAttachments);
  const { t, locale } = useLocalization();
  if (attachments.length === 0) return null;
  return (
    <ul className="attachment-previews" part="attachment-previews" aria-label={t('composer.attachments')}>
      {attachments.map((attachment) => {
        const state = isLocalUploadAttachment(attachment) ? attachment.localMetadata.uploadState : 'finished';
        // Failed for want of a network: not an error, it goes when the connection is back.
        const waiting = (attachment.localMetadata as WaitingUpload).waitingForNetwork;
        const voice = attachment.type === 'voiceRecording';
        // A recording's file name says nothing to a reader: it is "Voice message 0:07".
        const name = voice ? t('message.voice', { duration: minutes(attachment.duration ?? 0) }) : attachmentName(attachment) || t('message.attachment');
        return (
          <li key={attachment.localMetadata.id} className="attachment-preview" part="attachment-preview" data-state={waiting && state === 'failed' ? 'waiting' : state}>
            {!voice && <Thumbnail attachment={attachment} />}
            <span className="attachment-info">
              {voice ? <VoicePreview attachment={attachment} /> : <span className="attachment-name">{name}</span>}
              <span className={`attachment-status${(state === 'failed' && !waiting) || state === 'blocked' ? ' failed' : ''}`}>
                {statusText(t, locale, attachment)}
                {state === 'uploading' && <progress className="upload-progress" max={100} value={(attachment.localMetadata as { uploadProgress?: number }).uploadProgress} />}
              </span>
            </span>
            {state === 'failed' && !waiting && isLocalUploadAttachment(attachment) && (
              <button type="button" className="link-button" onClick={() => void manager.uploadAttachment(attachment)}>
                {t('message.retry')}
              </button>
            )}
            <button
              type="button"
              className="icon-button small"
              aria-label={t('composer.remove', { name })}
              onClick={() => manager.removeAttachments([attachment.localMetadata.id])}
            >
              <CloseIcon />
            </button>
          </li>
        );
      })}
    </ul>
  );
});
