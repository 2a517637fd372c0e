import { useEffect, useRef, type FormEvent, type ReactNode } from 'react';
import { CloseIcon } from '../common/icons';
import { useT } from '../common/localization';

interface SheetProps {
  title: string;
  part: string;
  onClose: () => void;
  onSubmit?: () => void;
  footer?: ReactNode;
  children: ReactNode;
}

/** A form over the conversation (poll, location): Esc or × closes it, the first field gets focus. */
export function Sheet({ title, part, onClose, onSubmit, footer, children }: SheetProps) {
  const form = useRef<HTMLFormElement>(null);
  const t = useT();
  useEffect(() => {
    form.current?.querySelector<HTMLElement>('input, select, textarea, .sheet-body button')?.focus();
  }, []);
  return (
    <form
      ref={form}
      className="sheet"
      part={part}
      aria-label={title}
      onSubmit={(event: FormEvent) => {
        event.preventDefault();
        onSubmit?.();
      }}
      onKeyDown={(event) => {
        if (event.key !== 'Escape') return;
        event.stopPropagation();
        onClose();
      }}
    >
      <div className="sheet-header">
        <h3 className="sheet-title">{title}</h3>
        <button type="button" className="icon-button small" aria-label={t('panel.close.sheet')} onClick={onClose}>
          <CloseIcon />
        </button>
      </div>
      <div className="sheet-body">{children}</div>
      {footer && <div className="sheet-footer">{footer}</div>}
    </form>
  );
}

/** A labelled field with the error the SDK gives it, tied to the input for screen readers. */
export function Field({ id, label, error, children }: { id: string; label: string; error?: string; children: ReactNode }) {
  return (
    <div className="field">
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      {children}
      {error && (
        <p className="field-error" id={`${id}-error`} role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
