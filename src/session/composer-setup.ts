import {
  isLocalUploadAttachment,
  createCommandInjectionMiddleware,
  createCommandStringExtractionMiddleware,
  createDraftCommandInjectionMiddleware,
  type AttachmentPostUploadMiddleware,
  type AttachmentPreUploadMiddleware,
  type LocalUploadAttachment,
  type MessageComposer,
  type TextComposerMiddleware,
} from 'stream-chat';
import { isTransient } from './session-error';
import { isConnected } from './connection-state';

/** What the element lets a site choose about every composer on the page. */
export interface ComposerOptions {
  /** Save what is being written to the backend and restore it (the `drafts` attribute). */
  drafts: boolean;
}

/** A draft is saved this long after the last local change, so typing is not a request per key. */
export const DRAFT_SAVE_DELAY_MS = 1000;

const ENRICHMENT = 'stream-io/attachment-manager-middleware/post-upload-enrichment';

// The SDK builds an uploaded attachment from the upload's `file` and `thumb_url` only. The
// backend also answers an image's size: keeping it lets the sent message reserve the image's
// box before it loads, so the list does not jump when the stored copy replaces it.
const keepImageSize: AttachmentPostUploadMiddleware = {
  id: 'chat-widget/image-size',
  handlers: {
    postProcess: ({ state, next, forward }) => {
      const width = Number(state.response?.original_width);
      const height = Number(state.response?.original_height);
      if (state.attachment.type !== 'image' || !(width > 0 && height > 0)) return forward();
      return next({ ...state, attachment: { ...state.attachment, original_width: width, original_height: height } });
    },
  },
};

const UPLOAD_ERROR = 'stream-io/attachment-manager-middleware/upload-error';
const UPLOAD_CONFIG_CHECK = 'stream-io/attachment-manager-middleware/file-upload-config-check';

/** What a recorded voice message carries beside its file, in the provider's field names. */
export interface VoiceDetails {
  /** Seconds. */
  duration: number;
  /** About 100 amplitudes, 0 to 1. */
  waveform_data: number[];
}

const voiceDetails = new WeakMap<Blob, VoiceDetails>();

/**
 * Marks a recorded file as a voice message before it is handed to the attachment manager: it is
 * then uploaded, checked and shown like any file, but becomes the provider's `voiceRecording`
 * attachment, with its duration and waveform (again when an upload that waited for the network
 * goes, as it is the same file).
 */
export const markVoiceRecording = (file: Blob, details: VoiceDetails) => voiceDetails.set(file, details);

const asVoiceRecording: AttachmentPreUploadMiddleware = {
  id: 'chat-widget/voice-recording',
  handlers: {
    prepare: ({ state, next, forward }) => {
      const details = state.attachment && voiceDetails.get(state.attachment.localMetadata.file as Blob);
      if (!details) return forward();
      return next({ ...state, attachment: { ...state.attachment, type: 'voiceRecording', ...details } as LocalUploadAttachment });
    },
  },
};

/** An upload that could not reach the backend is marked so, to say why and to go again when it can. */
export type WaitingUpload = { waitingForNetwork?: boolean };

// An upload made without a network (or before the chat connected, from the cache) is no error to
// report: it stays in the composer, marked as waiting, and goes when the connection is back. One
// that fails while connected is a failure, with its Retry.
const waitForNetwork = (composer: MessageComposer): AttachmentPostUploadMiddleware => ({
  id: 'chat-widget/wait-for-network',
  handlers: {
    postProcess: ({ state, complete, forward }) => {
      const offline = navigator.onLine === false || !isConnected(composer.client);
      if (!state.error || !offline || !isTransient(state.error)) return forward();
      const { attachment } = state;
      return complete({ ...state, attachment: { ...attachment, localMetadata: { ...attachment.localMetadata, waitingForNetwork: true } as typeof attachment.localMetadata } });
    },
  },
});

const lenientChecks = new WeakSet<MessageComposer['attachmentManager']>();

/**
 * The uploads that waited for the network go when the connection is back, as new uploads of the
 * same files (checked against the app's settings and through the same middleware as the first).
 */
function uploadWhenBack(composer: MessageComposer): () => void {
  const manager = composer.attachmentManager;
  const retry = () => {
    const waiting = manager.attachments.filter(
      (attachment) => isLocalUploadAttachment(attachment) && attachment.localMetadata.uploadState === 'failed' && (attachment.localMetadata as WaitingUpload).waitingForNetwork,
    );
    if (!waiting.length) return;
    manager.removeAttachments(waiting.map((attachment) => attachment.localMetadata.id));
    waiting.forEach((attachment) => void manager.uploadFile((attachment as LocalUploadAttachment).localMetadata.file));
  };
  const subscriptions = [composer.client.on('connection.recovered', retry), composer.client.on('connection.changed', (event) => event.online && retry())];
  // Without the app's settings (never fetched, and no network) a file is not refused for want of
  // them: it waits, and the check runs again, with the settings, when it is uploaded.
  if (!lenientChecks.has(manager)) {
    lenientChecks.add(manager);
    const check = manager.getUploadConfigCheck;
    manager.getUploadConfigCheck = (file) => check(file).catch(() => ({ uploadBlocked: false }));
  }
  return () => subscriptions.forEach((subscription) => subscription.unsubscribe());
}

/**
 * Saves the draft a while after each change. Whether there is anything to save, and whether
 * the change was made here (not restored from the backend), is the composer's own decision
 * (its draft composition middleware); a page being hidden or the composer going away saves at once.
 */
function saveDraftsOnChange(composer: MessageComposer): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const save = () => {
    clearTimeout(timer);
    timer = undefined;
    void composer.createDraft().catch(() => undefined);
  };
  const stop = composer.editingAuditState.subscribeWithSelector(
    ({ lastChange }) => ({ at: lastChange.stateUpdate }),
    () => {
      clearTimeout(timer);
      timer = setTimeout(save, DRAFT_SAVE_DELAY_MS);
    },
  );
  const onHidden = () => {
    if (timer && document.visibilityState === 'hidden') save();
  };
  document.addEventListener('visibilitychange', onHidden);
  return () => {
    stop();
    document.removeEventListener('visibilitychange', onHidden);
    if (timer) save();
  };
}

/**
 * The backend sends each saved draft back to every connection of its owner, this one included,
 * and the SDK then resets the composer to it (messageComposer.ts subscribeDraftUpdated): keys
 * typed while the save was on its way would be lost. What the box holds is never older than
 * what this composer saved, so its own echo (the draft carries the composer's id) leaves the
 * text as it is. A client-wide listener runs before the SDK's draft.updated one, in time to say so.
 */
function keepTextOverOwnDraftEcho(composer: MessageComposer): () => void {
  let ownEcho = false;
  const listener = composer.client.on((event) => {
    if (event.type !== 'draft.updated' || event.draft?.message?.id !== composer.id) return;
    ownEcho = true;
    queueMicrotask(() => (ownEcho = false));
  });
  const removePreprocessor = composer.textComposer.state.addPreprocessor((next, current) => {
    if (!ownEcho || !current || next.text === current.text) return;
    Object.assign(next, current);
    // The kept text is the latest change made here, so the SDK saves it in turn.
    queueMicrotask(() => composer.editingAuditState.partialNext({ lastChange: { ...composer.lastChange, stateUpdate: Date.now() } }));
  });
  return () => {
    listener.unsubscribe();
    removePreprocessor();
  };
}

/**
 * Turns on what this widget uses of a composer (the SDK's setup hook calls it for every
 * channel, thread and edit composer): link previews with the SDK's 1500 ms debounce, recorded
 * files sent as voice messages, the image size kept from uploads, uploads that wait for the
 * network, and drafts when the site asked for them. Returns the teardown.
 */
export function setupComposer(composer: MessageComposer, options: ComposerOptions): () => void {
  composer.updateConfig({ linkPreviews: { enabled: true }, drafts: { enabled: options.drafts } });
  composer.attachmentManager.preUploadMiddlewareExecutor.insert({
    middleware: [asVoiceRecording],
    position: { before: UPLOAD_CONFIG_CHECK },
    unique: true,
  });
  composer.attachmentManager.postUploadMiddlewareExecutor.insert({
    middleware: [keepImageSize],
    position: { after: ENRICHMENT },
    unique: true,
  });
  composer.attachmentManager.postUploadMiddlewareExecutor.insert({
    middleware: [waitForNetwork(composer)],
    position: { before: UPLOAD_ERROR },
    unique: true,
  });
  // A slash command typed out in full (`/giphy cats`, not picked from the list) becomes the
  // chosen command too: this SDK middleware takes `/giphy ` out of the text, as stream-chat-react
  // installs it; without it the injection below sent `/giphy /giphy cats`.
  composer.textComposer.middlewareExecutor.insert({
    // Typed for command suggestions; the executor holds every kind (stream-chat-react casts too).
    middleware: [createCommandStringExtractionMiddleware() as unknown as TextComposerMiddleware],
    position: { after: 'stream-io/text-composer/commands-middleware' },
    unique: true,
  });
  // A chosen slash command lives in the text composer's state, apart from the text; these SDK
  // middlewares (installed by the UI layer, as stream-chat-react does) put `/name` back in front.
  composer.compositionMiddlewareExecutor.insert({
    middleware: [createCommandInjectionMiddleware(composer)],
    position: { after: 'stream-io/message-composer-middleware/attachments' },
    unique: true,
  });
  composer.draftCompositionMiddlewareExecutor.insert({
    middleware: [createDraftCommandInjectionMiddleware(composer)],
    position: { after: 'stream-io/message-composer-middleware/draft-attachments' },
    unique: true,
  });
  const stops = [uploadWhenBack(composer), ...(options.drafts ? [saveDraftsOnChange(composer), keepTextOverOwnDraftEcho(composer)] : [])];
  return () => {
    stops.forEach((stop) => stop());
    // A lookup still waiting out its debounce would run after the panel (or the client) is gone.
    composer.linkPreviewsManager.cancelURLEnrichment();
  };
}
