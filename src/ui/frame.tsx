import type { ReactNode } from 'react';
import type { Presentation } from '../element/attributes';
import { Launcher } from './launcher';
import { PanelHeader } from './panel-header';

interface FrameProps extends Presentation {
  setOpen: (open: boolean) => void;
  unread: number;
  title: string;
  subtitle?: string;
  onBack?: () => void;
  actions?: ReactNode;
  children: ReactNode;
}

/** The chrome around every state: the floating launcher and panel, or the inline panel. */
export function Frame({ mode, open, setOpen, unread, title, subtitle, onBack, actions, children }: FrameProps) {
  const bubble = mode === 'bubble';
  return (
    <>
      {(open || !bubble) && (
        <section
          className="panel"
          part="panel"
          role={bubble ? 'dialog' : 'region'}
          aria-label={title}
          onKeyDown={(event) => {
            if (bubble && event.key === 'Escape') setOpen(false);
          }}
        >
          <PanelHeader title={title} subtitle={subtitle} onBack={onBack} actions={actions} onClose={bubble ? () => setOpen(false) : undefined} />
          <div className="panel-body">{children}</div>
        </section>
      )}
      {bubble && <Launcher open={open} unread={unread} onToggle={() => setOpen(!open)} />}
    </>
  );
}
