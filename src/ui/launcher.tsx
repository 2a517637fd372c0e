import { ChatIcon, CloseIcon } from './icons';

interface LauncherProps {
  open: boolean;
  unread: number;
  onToggle: () => void;
}

/** The floating bubble; its badge shows the unread count while the panel is closed. */
export function Launcher({ open, unread, onToggle }: LauncherProps) {
  const label = open ? 'Close chat' : unread > 0 ? `Open chat, ${unread} unread` : 'Open chat';
  return (
    <button type="button" className="launcher" part="launcher" aria-label={label} aria-expanded={open} onClick={onToggle}>
      {open ? <CloseIcon /> : <ChatIcon />}
      {!open && unread > 0 && (
        <span className="badge" part="badge" aria-hidden="true">
          {unread > 99 ? '99+' : unread}
        </span>
      )}
    </button>
  );
}
