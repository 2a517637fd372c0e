import { useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import { actionLabel, type MessageActionId } from '../../session/message-actions';
import { useT } from '../common/localization';
import { text } from '../../i18n/translate';
import { REACTIONS } from './reactions';

interface ActionMenuProps {
  actions: MessageActionId[];
  canReact: boolean;
  onAction: (action: MessageActionId) => void;
  onReact: (type: string) => void;
}

/**
 * A message's menu: a button that opens a list of reactions and actions, used by keyboard
 * (↑ ↓ Home End to move, Enter to choose, Esc to close and return focus) or mouse.
 */
export function ActionMenu({ actions, canReact, onAction, onReact }: ActionMenuProps) {
  const [open, setOpen] = useState(false);
  const t = useT();
  // Deleting asks once more: the first choice only arms it.
  const [confirmDelete, setConfirmDelete] = useState<MessageActionId | null>(null);
  const trigger = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);

  // Focus moves into the menu in the same frame it opens, so the next key lands there.
  useLayoutEffect(() => {
    if (open) menu.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
  }, [open]);

  useEffect(() => {
    if (!open) return;
    const closeOnOutside = (event: PointerEvent) => {
      if (!event.composedPath().includes(menu.current as EventTarget) && !event.composedPath().includes(trigger.current as EventTarget)) {
        setOpen(false);
      }
    };
    document.addEventListener('pointerdown', closeOnOutside);
    return () => document.removeEventListener('pointerdown', closeOnOutside);
  }, [open]);

  const close = () => {
    setOpen(false);
    setConfirmDelete(null);
    trigger.current?.focus();
  };

  // On the wrapper, so keys pressed while focus is still on the trigger are the menu's too.
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (!open) return;
    const items = [...(menu.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
    const index = items.indexOf(event.target as HTMLElement);
    const focus = (i: number) => items[(i + items.length) % items.length]?.focus();
    if (event.key === 'ArrowDown' || event.key === 'ArrowRight') focus(index + 1);
    else if (event.key === 'ArrowUp' || event.key === 'ArrowLeft') focus(index - 1);
    else if (event.key === 'Home') focus(0);
    else if (event.key === 'End') focus(items.length - 1);
    else if (event.key === 'Escape') close();
    else if (event.key === 'Tab') setOpen(false);
    else return;
    event.preventDefault();
    event.stopPropagation();
  };

  const choose = (action: MessageActionId) => {
    if ((action === 'delete' || action === 'hard-delete' || action === 'ban') && confirmDelete !== action) {
      setConfirmDelete(action);
      return;
    }
    close();
    onAction(action);
  };

  if (actions.length === 0 && !canReact) return null;
  return (
    <div className="action-menu" onKeyDown={onKeyDown}>
      <button
        ref={trigger}
        type="button"
        className="menu-trigger"
        part="message-actions-button"
        aria-label={t('actions.label')}
        aria-haspopup="menu"
        aria-expanded={open}
        onClick={() => (open ? close() : setOpen(true))}
      >
        ⋯
      </button>
      {open && (
        <div ref={menu} className="menu" part="message-actions" role="menu" aria-label={t('actions.label')}>
          {canReact && (
            <div className="menu-reactions" role="group" aria-label={t('actions.react')}>
              {Object.entries(REACTIONS).map(([type, emoji]) => (
                <button
                  key={type}
                  type="button"
                  role="menuitem"
                  className="menu-reaction"
                  aria-label={t('actions.reactWith', { type })}
                  onClick={() => {
                    close();
                    onReact(type);
                  }}
                >
                  {emoji}
                </button>
              ))}
            </div>
          )}
          {actions.map((action) => (
            <button
              key={action}
              type="button"
              role="menuitem"
              className={`menu-item${action.includes('delete') || action === 'ban' ? ' danger' : ''}`}
              onClick={() => choose(action)}
            >
              {confirmDelete === action ? t('actions.confirm', { action: text(actionLabel(action)) }) : t(actionLabel(action))}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
