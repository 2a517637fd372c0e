import { useLayoutEffect, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { panelShown, type Presentation } from '../../contract/attributes';
import { installPanelStyles } from './panel-styles';
import { useLocalization } from '../common/localization';
import { PanelHeader } from './panel-header';
import { usePhoneScreen, useScrollLock, useVisualViewport } from './phone-layout';

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
  // A phone's floating panel is the whole screen: a modal dialog over a page held still.
  const fullScreen = usePhoneScreen() && bubble && shown;
  useVisualViewport(section, fullScreen);
  useScrollLock(fullScreen);
  useLayoutEffect(() => {
    const root = section.current?.getRootNode();
    if (typeof ShadowRoot === 'undefined' || !(root instanceof ShadowRoot)) return;
    installPanelStyles(root);
    // Opened from the launcher (the focus is in the widget, not in the panel): the focus moves
    // into the panel, so the next Tab reaches its controls. A page that opens it leaves its focus be.
    const panel = section.current;
    if (bubble && panel && root.activeElement && !panel.contains(root.activeElement)) panel.focus({ preventScroll: true });
  }, [shown]);
  if (!shown) return null;
  return (
    <section
      ref={section}
      className="panel"
      part="panel"
      role={bubble ? 'dialog' : 'region'}
      tabIndex={-1}
      aria-modal={fullScreen || undefined}
      data-full-screen={fullScreen || undefined}
      aria-label={title}
      lang={locale}
      dir={dir}
      onKeyDown={(event) => {
        onKeyDown?.(event);
        if (fullScreen && event.key === 'Tab') keepFocusInside(event);
        if (bubble && event.key === 'Escape' && !event.defaultPrevented) setOpen(false);
      }}
    >
      <PanelHeader title={title} subtitle={subtitle} onBack={onBack} backLabel={backLabel} actions={actions} onClose={bubble ? () => setOpen(false) : undefined} />
      <div className="panel-body">{children}</div>
    </section>
  );
}

const FOCUSABLE = 'button:not([disabled]), input:not([disabled]), textarea:not([disabled]), select:not([disabled]), a[href], [tabindex]:not([tabindex="-1"])';

/** Tab and Shift+Tab go round the panel's controls: a modal dialog keeps the focus inside. */
function keepFocusInside(event: KeyboardEvent<HTMLElement>) {
  const controls = [...event.currentTarget.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => el.getClientRects().length > 0);
  const first = controls[0];
  const last = controls.at(-1);
  const active = (event.currentTarget.getRootNode() as ShadowRoot).activeElement;
  if (event.shiftKey && active === first) last?.focus();
  else if (!event.shiftKey && active === last) first?.focus();
  else return;
  event.preventDefault();
}
