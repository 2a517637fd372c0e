interface StatusViewProps {
  tone: 'info' | 'error';
  title: string;
  detail?: string;
  actionLabel?: string;
  onAction?: () => void;
}

/** A whole-panel state: connecting, loading, or an error with its reason and a way out. */
export function StatusView({ tone, title, detail, actionLabel, onAction }: StatusViewProps) {
  return (
    <div className={`status status-${tone}`} part={`status status-${tone}`} role={tone === 'error' ? 'alert' : 'status'}>
      {tone === 'info' && <span className="spinner" aria-hidden="true" />}
      <p className="status-title">{title}</p>
      {detail && <p className="status-detail">{detail}</p>}
      {actionLabel && onAction && (
        <button type="button" className="button" onClick={onAction}>
          {actionLabel}
        </button>
      )}
    </div>
  );
}
