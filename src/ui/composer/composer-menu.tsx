import { useEffect, useRef, useState } from 'react';
import { FileIcon, PinIcon, PlusIcon, PollIcon } from '../common/icons';
import { useT } from '../common/localization';

export type ComposerTool = 'files' | 'poll' | 'location';

const TOOLS = { files: [FileIcon, 'composer.toolFiles'], poll: [PollIcon, 'composer.toolPoll'], location: [PinIcon, 'composer.toolLocation'] } as const;

/**
 * The + button beside the text box (a disclosure: its choices follow it in tab order): attach
 * files, create a poll, share a location. Esc or a click elsewhere closes it.
 */
export function ComposerMenu({ tools, disabled, onChoose }: { tools: ComposerTool[]; disabled: boolean; onChoose: (tool: ComposerTool) => void }) {
  const [open, setOpen] = useState(false);
  const t = useT();
  const root = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return;
    const closeOutside = (event: PointerEvent) => event.composedPath().includes(root.current as EventTarget) || setOpen(false);
    document.addEventListener('pointerdown', closeOutside);
    return () => document.removeEventListener('pointerdown', closeOutside);
  }, [open]);

  if (tools.length === 0) return null;
  return (
    <div
      className="composer-menu"
      ref={root}
      onKeyDown={(event) => {
        if (event.key !== 'Escape' || !open) return;
        event.stopPropagation();
        setOpen(false);
        root.current?.querySelector('button')?.focus();
      }}
    >
      <button
        type="button"
        className="composer-tool"
        part="composer-menu-button"
        aria-label={t('composer.add')}
        aria-expanded={open}
        disabled={disabled}
        onClick={() => setOpen(!open)}
      >
        <PlusIcon />
      </button>
      {open && (
        <div className="menu composer-menu-list" part="composer-menu">
          {tools.map((tool) => {
            const [Icon, label] = TOOLS[tool];
            return (
              <button
                key={tool}
                type="button"
                className="menu-item"
                onClick={() => {
                  setOpen(false);
                  onChoose(tool);
                }}
              >
                <Icon />
                {t(label)}
              </button>
            );
          })}
        </div>
      )}
    </div>
  );
}
