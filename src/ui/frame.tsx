import { useLayoutEffect, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { panelShown, type Presentation } from '../element/attributes';
import { installPanelStyles } from './panel-styles';
import { useLocalization } from './localization';
import { PanelHeader } from './panel-header';

interface FrameProps extends Presentation {
  setOpen: (open: boolean) => void;
  title: string;
  subtitle?: string;
  onBack?: () => void;
  backLabel?: string;
  actions?: ReactNode;
  /** Keys pressed anywhere in the panel (shortcuts such as Ctrl+K). */
  onKeyDown?: (event: KeyboardEvent<HTMLElement>) => void;
  children: ReactNode;
}

/** The chrome around every state: the floating panel (its launcher is the element's), or the inline panel. */
export function Frame({ mode, open, setOpen, title, subtitle, onBack, backLabel, actions, onKeyDown, children }: FrameProps) {
  const bubble = mode === 'bubble';
  const shown = panelShown({ mode, open });
  // The panel's stylesheet is parsed when a panel first shows (before it is painted), so a
  // closed bubble's page never parses it.
  const section = useRef<HTMLElement>(null);
  const { locale, dir } = useLocalization();
  useLayoutEffect(() => {
    const root = section.current?.getRootNode();
    if (typeof ShadowRoot !== 'undefined' && root instanceof ShadowRoot) installPanelStyles(root);
  }, [shown]);
  if (!shown) return null;
  return (
    <section
      ref={section}
      className="panel"
      part="panel"
      role={bubble ? 'dialog' : 'region'}
      aria-label={title}
      lang={locale}
      dir={dir}
      onKeyDown={(event) => {
        onKeyDown?.(event);
        if (bubble && event.key === 'Escape' && !event.defaultPrevented) setOpen(false);
      }}
    >
      <PanelHeader title={title} subtitle={subtitle} onBack={onBack} backLabel={backLabel} actions={actions} onClose={bubble ? () => setOpen(false) : undefined} />
      <div className="panel-body">{children}</div>
    </section>
  );
}
