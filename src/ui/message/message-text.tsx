import { memo, type ReactNode } from 'react';
import { parseMarkdown, type Inline, type MentionedUser } from './markdown';

function renderInline(parts: Inline[]): ReactNode[] {
  return parts.map((part, i) => {
    switch (part.t) {
      case 'text':
        return part.v;
      case 'bold':
        return <strong key={i}>{renderInline(part.c)}</strong>;
      case 'italic':
        return <em key={i}>{renderInline(part.c)}</em>;
      case 'code':
        return <code key={i}>{part.v}</code>;
      case 'link':
        return (
          <a key={i} href={part.href} target="_blank" rel="noopener noreferrer nofollow ugc">
            {part.v}
          </a>
        );
      case 'mention':
        return (
          <span key={i} className="mention" part="mention" data-user-id={part.userId}>
            {part.v}
          </span>
        );
    }
  });
}

interface MessageTextProps {
  text: string;
  mentioned?: MentionedUser[];
}

/** Message text as elements and text nodes, never as HTML. */
export const MessageText = memo(function MessageText({ text, mentioned = [] }: MessageTextProps) {
  return (
    <div className="message-text" dir="auto">
      {parseMarkdown(text, mentioned).map((block, i) => {
        switch (block.t) {
          case 'pre':
            return (
              <pre key={i}>
                <code>{block.v}</code>
              </pre>
            );
          case 'ul':
            return (
              <ul key={i}>
                {block.items.map((item, j) => (
                  <li key={j}>{renderInline(item)}</li>
                ))}
              </ul>
            );
          case 'ol':
            return (
              <ol key={i} start={block.start}>
                {block.items.map((item, j) => (
                  <li key={j}>{renderInline(item)}</li>
                ))}
              </ol>
            );
          case 'p':
            return (
              <p key={i}>
                {block.lines.map((line, j) => (
                  <span key={j}>
                    {j > 0 && <br />}
                    {renderInline(line)}
                  </span>
                ))}
              </p>
            );
        }
      })}
    </div>
  );
});
