import type { LocalMessage, ReactionResponse } from 'stream-chat';
import { useT } from '../common/localization';

export const REACTIONS: Record<string, string> = { like: '👍', love: '❤️', haha: '😂', wow: '😮', sad: '😢' };

interface ReactionsProps {
  message: LocalMessage;
  onToggle: (type: string, own: boolean) => void;
}

function reactorNames(reactions: ReactionResponse[] | undefined, type: string): string {
  const names = (reactions ?? []).filter((r) => r.type === type).map((r) => r.user?.name || r.user_id || 'someone');
  return names.join(', ');
}

/** Reaction groups with their counts; own reactions are pressed; the title says who reacted. */
export function Reactions({ message, onToggle }: ReactionsProps) {
  const groups = Object.entries(message.reaction_groups ?? {}).filter(([, group]) => group.count > 0);
  if (groups.length === 0) return null;
  const own = new Set((message.own_reactions ?? []).map((r) => r.type));
  const t = useT();
  return (
    <div className="reactions" part="reactions">
      {groups.map(([type, group]) => {
        const who = reactorNames(message.latest_reactions, type);
        return (
          <button
            key={type}
            type="button"
            className="reaction"
            part="reaction"
            aria-pressed={own.has(type)}
            aria-label={who ? t('message.reactionBy', { type, count: group.count, names: who }) : t('message.reaction', { type, count: group.count })}
            title={who}
            onClick={() => onToggle(type, own.has(type))}
          >
            <span aria-hidden="true">{REACTIONS[type] ?? type}</span> {group.count}
          </button>
        );
      })}
    </div>
  );
}
