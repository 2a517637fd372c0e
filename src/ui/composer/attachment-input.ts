import { useEffect, useRef, useState, type RefObject } from 'react';
import type { MessageComposer } from 'stream-chat';
import { english } from '../../i18n/english';
import { text, type Text } from '../../i18n/translate';

/**
 * Tells the visitor something about what they are writing, through the SDK's notifications
 * (shown above the composer): those carry English; the panel says `said` in the visitor's language.
 */
export function notifyText(composer: MessageComposer, said: Text, type: string, severity: 'warning' | 'info' = 'warning') {
  const payload = { message: english(said), origin: { emitter: 'Composer' }, options: { type, metadata: { text: said } } };
  if (severity === 'info') composer.client.notifications.addInfo(payload);
  else composer.client.notifications.addWarning(payload);
}

/**
 * Hands files to the SDK's attachment manager, which checks and uploads them. It takes only as
 * many as there are free slots (10 per message); the files it leaves out are reported here,
 * through the same notifications the SDK uses, instead of vanishing silently.
 */
export function addFiles(composer: MessageComposer, files: File[]) {
  const manager = composer.attachmentManager;
  if (files.length === 0) return;
  const notify = (said: Text, type: string) => notifyText(composer, said, type);
  if (!manager.hasUploadPermission) {
    notify(text('composer.noFiles'), 'permission:attachment:upload:denied');
    return;
  }
  const room = Math.max(0, manager.availableUploadSlots);
  if (files.length > room) {
    const left = files.length - room;
    notify(text('composer.tooManyFiles', { max: manager.maxNumberOfFilesPerMessage, count: left }), 'validation:attachment:count:exceeded');
  }
  void manager.uploadFiles(files);
}

/**
 * Lets files be dropped anywhere on the panel's body around `anchor`; returns whether files
 * are being dragged over it (to show where they will go).
 */
export function useFileDrop(anchor: RefObject<HTMLElement | null>, enabled: boolean, onFiles: (files: File[]) => void): boolean {
  const [dragging, setDragging] = useState(false);
  const latest = useRef(onFiles);
  latest.current = onFiles;
  useEffect(() => {
    const area = anchor.current?.closest('.panel-body') ?? anchor.current?.parentElement;
    if (!enabled || !area) return;
    // dragenter/dragleave fire for every child crossed: count them to know when the panel is left.
    let depth = 0;
    const handle = (event: DragEvent) => {
      if (!Array.from(event.dataTransfer?.types ?? []).includes('Files')) return;
      event.preventDefault();
      const { type } = event;
      depth = type === 'drop' ? 0 : Math.max(0, depth + (type === 'dragenter' ? 1 : type === 'dragleave' ? -1 : 0));
      setDragging(depth > 0);
      if (type === 'drop') latest.current(Array.from(event.dataTransfer?.files ?? []));
    };
    const types = ['dragenter', 'dragover', 'dragleave', 'drop'] as const;
    types.forEach((type) => area.addEventListener(type, handle as EventListener));
    return () => types.forEach((type) => area.removeEventListener(type, handle as EventListener));
  }, [anchor, enabled]);
  return dragging;
}
