import { memo } from 'react';
import type { LinkPreview, LinkPreviewsManager, LinkPreviewsManagerState } from 'stream-chat';
import { LinkPreviewStatus } from 'stream-chat';
import { useStateStore } from '../../session/use-state-store';
import { hideBroken, hostOf, safeUrl } from '../common/format';
import { CloseIcon } from '../common/icons';
import { useT } from '../common/localization';

const selectPreviews = (state: LinkPreviewsManagerState) => ({ previews: state.previews });

function Body({ preview: p }: { preview: LinkPreview }) {
  const t = useT();
  const loaded = p.status === LinkPreviewStatus.LOADED;
  const image = loaded ? safeUrl(p.thumb_url ?? p.image_url) : undefined;
  const title = loaded ? p.title || hostOf(p.og_scrape_url) : t(p.status === LinkPreviewStatus.FAILED ? 'composer.previewFailed' : 'composer.previewLoading');
  return (
    <>
      {image && <img className="link-preview-image" src={image} alt="" width={40} height={40} onError={hideBroken} />}
      <span className="link-preview-text">
        <span className="link-preview-title">{title}</span>
        <span className="link-preview-detail">{(loaded && (p.text || p.author_name)) || p.og_scrape_url}</span>
      </span>
    </>
  );
}

/**
 * The previews the SDK's link previews manager found in the text (after its debounce): loading,
 * then loaded or failed. Dismissing one keeps it out of the message; a loaded one is sent with
 * the message as its card.
 */
export const LinkPreviews = memo(function LinkPreviews({ manager }: { manager: LinkPreviewsManager }) {
  const { previews } = useStateStore(manager.state, selectPreviews);
  const t = useT();
  const shown = [...previews.values()].filter(
    (preview) => preview.status !== LinkPreviewStatus.DISMISSED && preview.status !== LinkPreviewStatus.PENDING,
  );
  if (shown.length === 0) return null;
  return (
    <ul className="link-previews" aria-label={t('composer.linkPreviews')}>
      {shown.map((preview) => (
        <li key={preview.og_scrape_url} className="link-preview" part="link-preview" data-status={preview.status}>
          <Body preview={preview} />
          <button
            type="button"
            className="icon-button small"
            aria-label={t('composer.removePreview', { host: hostOf(preview.og_scrape_url) })}
            onClick={() => manager.dismissPreview(preview.og_scrape_url)}
          >
            <CloseIcon />
          </button>
        </li>
      ))}
    </ul>
  );
});
