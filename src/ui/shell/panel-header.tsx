import type { ReactNode } from 'react';
import { BackIcon, CloseIcon } from '../common/icons';
import { useT } from '../common/localization';

interface PanelHeaderProps {
  title: string;
  subtitle?: string;
  onBack?: () => void;
  /** What the back button returns to, for its accessible name. */
  backLabel?: string;
  onClose?: () => void;
  /** Buttons for the open channel (members, threads). */
  actions?: ReactNode;
}

export function PanelHeader({ title, subtitle, onBack, backLabel, onClose, actions }: PanelHeaderProps) {
  const t = useT();
  return (
    <div className="header" part="header">
      {onBack && (
        <button type="button" className="icon-button" part="back-button" aria-label={backLabel ?? t('panel.back')} onClick={onBack}>
          <BackIcon />
        </button>
      )}
      <div className="header-text">
        <h2 className="header-title">{title}</h2>
        {subtitle && <p className="header-subtitle">{subtitle}</p>}
      </div>
      {actions}
      {onClose && (
        <button type="button" className="icon-button" part="close-button" aria-label={t('panel.close')} onClick={onClose}>
          <CloseIcon />
        </button>
      )}
    </div>
  );
}
