// A part of the panel fetched on first use (build/fetch-on-first-use.mjs), for the view that shows
// it: the part once it is here (at once on every later render, nothing to wait for), whether
// fetching it failed, and a retry; and what shows until it is here.
import { useEffect, useState } from 'react';
import { useT } from './localization';
import { StatusView } from './status-view';

const loaded = new Map<() => Promise<unknown>, unknown>();

export function usePart<T>(load: () => Promise<T>, wanted: boolean): { part: T | undefined; failed: boolean; retry: () => void } {
  const [part, setPart] = useState(() => loaded.get(load) as T | undefined);
  const [failed, setFailed] = useState(false);
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    if (!wanted || part) return;
    let live = true;
    load().then(
      (found) => {
        loaded.set(load, found);
        if (live) setPart(() => found);
      },
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
  }, [wanted, attempt]);
  return {
    part,
    failed,
    retry: () => {
      setFailed(false);
      setAttempt(attempt + 1);
    },
  };
}

/** While a part comes: a spinner; when it could not come: why, and Try again. */
export function PartPending({ failed, retry }: { failed: boolean; retry: () => void }) {
  const t = useT();
  return failed ? (
    <StatusView tone="error" title={t('panel.partFailed')} actionLabel={t('panel.tryAgain')} onAction={retry} />
  ) : (
    <StatusView tone="info" title={t('panel.partLoading')} />
  );
}
