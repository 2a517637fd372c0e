import type { ReactNode } from 'react';
import { BackIcon, CloseIcon } from './icons';

interface PanelHeaderProps {
  title: string;
  subtitle?: string;
  onBack?: () => void;
  onClose?: () => void;
  /** Buttons for the open channel (members, threads). */
  actions?: ReactNode;
}

export function PanelHeader({ title, subtitle, onBack, onClose, actions }: PanelHeaderProps) {
  return (
    <header className="header" part="header">
      {onBack && (
        <button type="button" className="icon-button" part="back-button" aria-label="Back to conversations" onClick={onBack}>
          <BackIcon />
        </button>
      )}
      <div className="header-text">
        <h2 className="header-title">{title}</h2>
        {subtitle && <p className="header-subtitle">{subtitle}</p>}
      </div>
      {actions}
      {onClose && (
        <button type="button" className="icon-button" part="close-button" aria-label="Close chat" onClick={onClose}>
          <CloseIcon />
        </button>
      )}
    </header>
  );
}
