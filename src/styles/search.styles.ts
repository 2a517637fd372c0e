// The search view's styles (src/ui/search), adopted with the widget's stylesheet.
export const searchStyles = /* css */ `
.search { flex: 1; min-height: 0; display: flex; flex-direction: column; }
.search-bar { display: flex; flex-direction: column; gap: 8px; padding: 10px 12px 8px; border-bottom: 1px solid var(--cw-border); }
.search-field {
  display: flex; align-items: center; gap: 8px; padding: 0 12px; height: 38px; border-radius: 19px;
  background: var(--cw-surface); color: var(--cw-muted); border: 1px solid transparent;
}
.search-field:focus-within { border-color: var(--cw-accent); background: var(--cw-bg); }
.search-field svg { flex: none; width: 18px; height: 18px; }
.search-input {
  flex: 1; min-width: 0; height: 100%; border: 0; padding: 0; background: transparent; outline: none;
  color: var(--cw-text); font: inherit; font-size: 14px;
}
.search-input::placeholder { color: var(--cw-muted); }
.search-input::-webkit-search-cancel-button { cursor: pointer; }
.search-filters { display: flex; gap: 6px; }
.search-filter {
  border: 1px solid var(--cw-border); background: var(--cw-bg); color: var(--cw-text); border-radius: 14px;
  padding: 0 12px; height: 28px; font-size: 12px; font-weight: 600; cursor: pointer;
}
.search-filter:hover { background: var(--cw-surface); }
.search-filter[aria-pressed="true"] { background: var(--cw-accent); border-color: var(--cw-accent); color: var(--cw-accent-text); }
.search-results { flex: 1; min-height: 0; overflow-y: auto; overscroll-behavior: contain; padding: 4px 0 12px; }
.search-hint { padding: 32px 24px; text-align: center; color: var(--cw-muted); overflow-wrap: anywhere; }
.search-group { padding-top: 6px; }
.search-group + .search-group { border-top: 1px solid var(--cw-border); margin-top: 4px; }
.search-group-title {
  margin: 0; padding: 6px 16px 2px; font-size: 11px; line-height: 16px; font-weight: 700;
  letter-spacing: 0.04em; text-transform: uppercase; color: var(--cw-muted);
}
.search-hit {
  width: 100%; display: flex; gap: 10px; align-items: flex-start; padding: 8px 16px; border: 0;
  background: transparent; color: inherit; text-align: start; cursor: pointer;
}
.search-hit:hover, .search-hit:focus-visible { background: var(--cw-surface); }
.widget .search-hit:focus-visible { outline-offset: -2px; }
.search-hit:disabled { cursor: progress; opacity: 0.7; }
.search-hit .avatar { position: relative; margin-top: 0; width: 32px; height: 32px; font-size: 13px; }
.search-hit .avatar.square { border-radius: 9px; background: color-mix(in srgb, var(--cw-accent) 14%, var(--cw-bg)); color: var(--cw-accent-ink); }
.search-hit-text { flex: 1; min-width: 0; display: flex; flex-direction: column; }
.search-hit-title { font-weight: 600; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.search-hit-detail { font-size: 12px; line-height: 16px; color: var(--cw-muted); overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.search-hit-meta { display: flex; align-items: baseline; gap: 6px; font-size: 12px; line-height: 16px; color: var(--cw-muted); min-width: 0; }
.search-hit-author { font-weight: 650; color: var(--cw-text); white-space: nowrap; }
.search-hit-channel { flex: 1; min-width: 0; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.search-hit-time { flex: none; font-size: 11px; }
.search-hit-snippet {
  margin-top: 2px; overflow: hidden; overflow-wrap: anywhere;
  display: -webkit-box; -webkit-box-orient: vertical; -webkit-line-clamp: 3;
}
.search-match {
  background: color-mix(in srgb, var(--cw-accent) 20%, transparent); color: inherit;
  font-weight: 650; border-radius: 3px; padding: 0 1px;
}
.search-state { display: flex; align-items: center; gap: 8px; padding: 8px 16px; font-size: 12px; color: var(--cw-muted); }
.search-error { color: var(--cw-danger); flex-wrap: wrap; }
.search-error span { flex: 1; min-width: 0; overflow-wrap: anywhere; }
.search-more {
  display: block; margin: 2px 16px 6px; padding: 4px 0; border: 0; background: none; cursor: pointer;
  color: var(--cw-accent-ink); font-size: 12px; font-weight: 650;
}
.spinner.small { width: 14px; height: 14px; border-width: 2px; }
`;
