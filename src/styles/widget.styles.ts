// The panel's stylesheet: everything inside the panel. Adopted beside base.styles.ts the first
// time a panel is shown; the custom properties and resets it relies on are there.
export const widgetStyles = /* css */ `
.panel {
  display: flex; flex-direction: column; overflow: hidden;
  background: var(--cw-bg); color: var(--cw-text);
  border: 1px solid var(--cw-border); border-radius: var(--chat-widget-radius);
}
/* Focused as a whole when it opens from the launcher; its controls show their own focus. */
.panel:focus { outline: none; }
.widget[data-mode="bubble"] .panel {
  position: fixed; right: var(--chat-widget-offset); bottom: calc(var(--chat-widget-offset) + 68px);
  z-index: var(--chat-widget-z-index);
  width: min(var(--chat-widget-width), calc(100vw - 2 * var(--chat-widget-offset)));
  height: min(var(--chat-widget-height), calc(100vh - 2 * var(--chat-widget-offset) - 68px));
  box-shadow: 0 12px 40px rgba(20, 20, 40, 0.25);
}
.widget[data-position="left"] .panel { right: auto; left: var(--chat-widget-offset); }
/* Inline, the panel fills the element's box when the page sizes it, and has its default height
   when it does not (the host's own height is then auto: base.styles.ts). */
.widget[data-mode="inline"] { height: 100%; }
.widget[data-mode="inline"] .panel { width: 100%; height: 100%; min-height: 0; }
/* A phone's floating panel is the whole visual viewport (phone-layout.ts keeps the --cw-vv-*
   properties current; 100dvh where there is no visualViewport), inside the safe area. */
.panel[data-full-screen] {
  left: var(--cw-vv-left, 0) !important; top: var(--cw-vv-top, 0) !important; right: auto !important; bottom: auto !important;
  width: var(--cw-vv-width, 100vw) !important; height: var(--cw-vv-height, 100dvh) !important;
  border: 0; border-radius: 0; box-shadow: none;
  padding: env(safe-area-inset-top) env(safe-area-inset-right) env(safe-area-inset-bottom) env(safe-area-inset-left);
}
@media (max-width: 639.98px), (pointer: coarse) and (max-height: 500px) {
  /* Under the full-screen panel (still there for the focus to come back to on close). */
  .launcher { z-index: calc(var(--chat-widget-z-index) - 1); }
}
/* Arrows point the way the language reads. */
.panel[dir="rtl"] .directional { transform: scaleX(-1); }
.panel-body { flex: 1; min-height: 0; display: flex; flex-direction: column; }

.header {
  display: flex; align-items: center; gap: 8px; padding: 12px; padding-inline-start: 16px;
  background: var(--cw-accent); color: var(--cw-accent-text);
}
.header-text { flex: 1; min-width: 0; }
.header-title { font-size: 16px; line-height: 22px; font-weight: 650; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.header-subtitle { font-size: 12px; line-height: 16px; opacity: 0.85; }
.icon-button {
  width: 36px; height: 36px; border-radius: 50%; border: 0; padding: 0; background: transparent;
  display: grid; place-items: center; cursor: pointer; color: inherit;
}
.icon-button:hover { background: rgba(255, 255, 255, 0.16); }

/* States */
.status { flex: 1; display: flex; flex-direction: column; align-items: center; justify-content: center; gap: 8px; padding: 24px; text-align: center; }
.status-title { font-weight: 600; }
.status-detail { color: var(--cw-muted); max-width: 300px; overflow-wrap: anywhere; }
.status-error .status-title { color: var(--cw-danger); }
.spinner { width: 24px; height: 24px; border-radius: 50%; border: 3px solid var(--cw-border); border-top-color: var(--cw-accent); animation: cw-spin 800ms linear infinite; }
@keyframes cw-spin { to { transform: rotate(360deg); } }
@media (prefers-reduced-motion: reduce) { .spinner { animation-duration: 2400ms; } }
.banner { padding: 6px 12px; font-size: 12px; background: var(--cw-surface); color: var(--cw-muted); border-bottom: 1px solid var(--cw-border); }
.empty { margin: auto; padding: 24px; color: var(--cw-muted); text-align: center; }
.visually-hidden { position: absolute; width: 1px; height: 1px; margin: -1px; padding: 0; overflow: hidden; clip-path: inset(50%); white-space: nowrap; border: 0; }

/* Messages: rows use padding, never margins, so their measured heights add up exactly. */
.message-area { position: relative; flex: 1; min-height: 0; display: flex; flex-direction: column; }
.message-scroller { flex: 1; min-height: 0; overflow-y: auto; overscroll-behavior: contain; overflow-anchor: none; display: flex; flex-direction: column; padding: 8px 12px 0; }
.message-list { display: block; margin-top: auto; }
.spacer { display: block; }
.row { display: block; }
.loading-more { text-align: center; font-size: 12px; color: var(--cw-muted); padding: 6px; }
.date-separator, .unread-separator, .thread-divider { display: flex; align-items: center; gap: 8px; padding: 12px 0 4px; font-size: 12px; color: var(--cw-muted); }
.date-separator::before, .date-separator::after, .unread-separator::before, .unread-separator::after, .thread-divider::after { content: ""; flex: 1; height: 1px; background: var(--cw-border); }
.unread-separator { color: var(--cw-danger); font-weight: 600; }
.unread-separator::before, .unread-separator::after { background: var(--cw-danger); opacity: 0.5; }
.message { display: flex; gap: 8px; align-items: flex-start; width: fit-content; max-width: 92%; padding-top: 8px; border-radius: 12px; }
.message.continued { padding-top: 2px; }
.message.own { margin-inline-start: auto; flex-direction: row-reverse; }
.message.highlighted .bubble { animation: cw-flash 2400ms ease-out; box-shadow: 0 0 0 2px var(--cw-accent); }
@keyframes cw-flash { from { box-shadow: 0 0 0 6px var(--cw-accent); } }
@media (prefers-reduced-motion: reduce) { .message.highlighted .bubble { animation: none; } }
.avatar {
  flex: none; width: 28px; height: 28px; margin-top: 18px; border-radius: 50%; display: grid; place-items: center;
  background: var(--cw-surface); color: var(--cw-muted); font-size: 12px; font-weight: 700;
}
.message.continued .avatar { visibility: hidden; height: 0; margin-top: 0; }
.message.own .avatar { display: none; }
.message-body { display: flex; flex-direction: column; min-width: 0; align-items: flex-start; }
.message.own .message-body { align-items: flex-end; }
.message-meta { display: flex; gap: 6px; align-items: baseline; font-size: 12px; line-height: 16px; color: var(--cw-muted); padding: 0 4px 2px; }
.message-author { font-weight: 600; color: var(--cw-text); }
.bubble-row { display: flex; align-items: center; gap: 4px; max-width: 100%; }
.message.own .bubble-row { flex-direction: row-reverse; }
.bubble {
  padding: 8px 12px; border-radius: 16px; background: var(--cw-surface); color: var(--cw-text);
  overflow-wrap: anywhere; min-width: 0;
}
.message.own .bubble { background: var(--cw-accent); color: var(--cw-accent-text); }
.bubble-error { background: transparent; border: 1px solid var(--cw-danger); color: var(--cw-danger); }
.bubble-ephemeral { background: transparent; border: 1px dashed var(--cw-border); color: var(--cw-muted); }
.message-text p, .message-text ul, .message-text ol, .message-text pre { margin: 0; }
.message-text p + p, .message-text p + ul, .message-text ul + p, .message-text pre + p, .message-text p + pre { margin-top: 6px; }
.message-text ul, .message-text ol { padding-inline-start: 20px; }
.message-text ul { list-style: disc; }
.message-text ol { list-style: decimal; }
.message-text code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12.5px; background: rgba(127, 127, 127, 0.18); border-radius: 4px; padding: 1px 4px; }
.message-text pre { white-space: pre-wrap; background: rgba(127, 127, 127, 0.14); border-radius: 8px; padding: 8px; }
.message-text pre code { background: none; padding: 0; }
.message-text a { color: inherit; text-decoration: underline; }
.mention { font-weight: 650; background: rgba(127, 127, 127, 0.16); border-radius: 4px; padding: 0 2px; }
.message-deleted { color: var(--cw-muted); font-style: italic; }
.message-edited { display: block; font-size: 11px; opacity: 0.75; }
.message-state { font-size: 11px; color: var(--cw-muted); padding: 2px 4px; }
.message-failed { color: var(--cw-danger); }
.pinned-label { font-size: 11px; color: var(--cw-muted); padding: 0 4px 2px; }
.link-button { border: 0; background: none; padding: 0; color: inherit; font-weight: 600; text-decoration: underline; cursor: pointer; }
.thread-link { font-size: 12px; color: var(--cw-accent-ink); padding: 2px 4px; text-decoration: none; }
.message-system { text-align: center; font-size: 12px; color: var(--cw-muted); padding: 8px 6px 2px; }
.quoted { display: flex; flex-direction: column; align-items: flex-start; gap: 1px; width: 100%; margin-bottom: 6px; padding: 4px 8px; border: 0; border-inline-start: 3px solid currentColor; border-radius: 6px; background: rgba(127, 127, 127, 0.16); cursor: pointer; text-align: start; font-size: 12px; }
.quoted-author { font-weight: 650; }
.quoted-text { opacity: 0.85; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; max-width: 240px; }
.reactions { display: flex; flex-wrap: wrap; gap: 4px; padding: 3px 2px 0; }
.reaction { border: 1px solid var(--cw-border); background: var(--cw-bg); border-radius: 12px; padding: 0 8px; height: 24px; font-size: 12px; cursor: pointer; }
.reaction[aria-pressed="true"] { border-color: var(--cw-accent); background: color-mix(in srgb, var(--cw-accent) 14%, var(--cw-bg)); }
.action-menu { position: relative; flex: none; }
.menu-trigger { width: 28px; height: 28px; border-radius: 50%; border: 0; background: transparent; color: var(--cw-muted); cursor: pointer; font-size: 16px; line-height: 1; opacity: 0; }
.message:hover .menu-trigger, .menu-trigger:focus-visible, .menu-trigger[aria-expanded="true"] { opacity: 1; }
@media (hover: none) { .menu-trigger { opacity: 0.6; } }
.menu {
  position: absolute; z-index: 2; top: 30px; inset-inline-end: 0; min-width: 190px; padding: 6px;
  background: var(--cw-bg); color: var(--cw-text); border: 1px solid var(--cw-border); border-radius: 12px;
  box-shadow: 0 8px 24px rgba(20, 20, 40, 0.18); display: flex; flex-direction: column;
}
.message.own .menu { inset-inline-end: auto; inset-inline-start: 0; }
.menu-reactions { display: flex; gap: 2px; padding-bottom: 4px; margin-bottom: 4px; border-bottom: 1px solid var(--cw-border); }
.menu-reaction { flex: 1; border: 0; background: transparent; border-radius: 8px; height: 32px; font-size: 17px; cursor: pointer; }
.menu-item { border: 0; background: transparent; text-align: start; padding: 7px 10px; border-radius: 8px; cursor: pointer; }
.menu-item:hover, .menu-item:focus-visible, .menu-reaction:hover, .menu-reaction:focus-visible { background: var(--cw-surface); outline: none; }
.menu-item.danger { color: var(--cw-danger); }
.typing { min-height: 24px; padding: 4px 4px; font-size: 12px; color: var(--cw-muted); font-style: italic; }
.jump-latest {
  position: absolute; inset-inline-end: 12px; bottom: 12px; border: 1px solid var(--cw-border); border-radius: 16px; padding: 6px 12px;
  background: var(--cw-bg); color: var(--cw-text); font-size: 12px; font-weight: 600; cursor: pointer; box-shadow: 0 4px 12px rgba(20, 20, 40, 0.15);
}
.pinned-bar, .subheader {
  display: flex; align-items: center; gap: 8px; width: 100%; padding: 6px 12px; border: 0; border-bottom: 1px solid var(--cw-border);
  background: var(--cw-surface); color: var(--cw-text); font-size: 12px; text-align: start; cursor: pointer;
}
.subheader { cursor: default; font-weight: 650; padding: 4px 8px; }
.pinned-text { flex: 1; min-width: 0; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.pinned-count { color: var(--cw-muted); }
.notice { display: flex; align-items: center; gap: 8px; padding: 4px; padding-inline-start: 12px; font-size: 12px; background: var(--cw-surface); border-bottom: 1px solid var(--cw-border); }
.notice span { flex: 1; }
.notice.banned { padding: 8px 12px; border-top: 1px solid var(--cw-border); border-bottom: 0; color: var(--cw-danger); }
.icon-button.small { width: 28px; height: 28px; }
.icon-button.small svg { width: 16px; height: 16px; }
.load-earlier { font-size: 12px; padding: 6px 0; }

/* Composer */
.composer { display: flex; flex-direction: column; gap: 6px; padding: 10px 12px 12px; border-top: 1px solid var(--cw-border); background: var(--cw-bg); }
.composer-row { display: flex; align-items: flex-end; gap: 8px; }
.composer-context { display: flex; align-items: center; gap: 6px; font-size: 12px; color: var(--cw-muted); padding-inline-start: 4px; }
.composer-context-text { flex: 1; min-width: 0; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.composer-input {
  flex: 1; resize: none; min-height: 40px; max-height: 120px; field-sizing: content;
  padding: 9px 12px; border-radius: 20px; border: 1px solid var(--cw-border);
  background: var(--cw-surface); color: var(--cw-text); font-size: 14px; line-height: 20px; outline: none;
}
.composer-input::placeholder { color: var(--cw-muted); }
.composer-input:disabled { opacity: 0.6; }
.send-button {
  flex: none; width: 40px; height: 40px; border-radius: 50%; border: 0; padding: 0;
  display: grid; place-items: center; cursor: pointer;
  background: var(--cw-accent); color: var(--cw-accent-text);
}
.send-button:disabled { opacity: 0.4; cursor: default; }
/* Held on a touch screen to record: no scrolling, selection or callout takes the gesture. */
.record-button { touch-action: none; user-select: none; -webkit-user-select: none; -webkit-touch-callout: none; }
.record-button[aria-busy="true"] { opacity: 0.6; }
.reply-in-channel { display: flex; align-items: center; gap: 6px; font-size: 12px; color: var(--cw-muted); padding-inline-start: 4px; }

/* Channel list */
.channel-list { overflow-y: auto; flex: 1; padding: 6px 0; }
.channel-item {
  width: 100%; display: flex; gap: 10px; align-items: center; padding: 10px 16px;
  border: 0; background: transparent; cursor: pointer; text-align: start;
}
.channel-item:hover { background: var(--cw-surface); }
.muted-badge { background: var(--cw-muted); color: var(--cw-bg); }
.channel-item .avatar { width: 36px; height: 36px; font-size: 14px; }
.channel-text { flex: 1; min-width: 0; display: flex; flex-direction: column; }
.channel-name { font-weight: 600; }
.channel-preview { color: var(--cw-muted); font-size: 12px; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }

.channel-item.unread .channel-name { font-weight: 800; }

/* Members */
.members { flex: 1; min-height: 0; overflow-y: auto; padding: 8px 0; }
.members-summary { padding: 0 16px 8px; font-size: 12px; color: var(--cw-muted); }
.member-add { padding: 0 12px 8px; }
.member-search {
  width: 100%; padding: 8px 12px; border-radius: 18px; border: 1px solid var(--cw-border);
  background: var(--cw-surface); color: var(--cw-text); font: inherit; outline: none;
}
.member-search:focus-visible { outline: 2px solid var(--cw-accent); }
.member-results { margin-top: 4px; border: 1px solid var(--cw-border); border-radius: 10px; overflow: hidden; }
.member-add-label { font-size: 12px; color: var(--cw-accent-ink); font-weight: 650; }
.member { display: flex; align-items: center; gap: 10px; padding: 8px 16px; }
.member .avatar, .channel-item .avatar { margin-top: 0; position: relative; }
.member .avatar { width: 32px; height: 32px; }
.presence { position: absolute; inset-inline-end: -1px; bottom: -1px; width: 10px; height: 10px; border-radius: 50%; background: var(--cw-muted); border: 2px solid var(--cw-bg); }
.presence.online { background: #22a55b; }
.icon-button[aria-pressed="true"] { background: rgba(255, 255, 255, 0.22); }
.link-like { border: 0; background: none; padding: 0; text-align: start; cursor: pointer; color: inherit; font: inherit; }
.member.due .channel-preview { color: var(--cw-danger); font-weight: 650; }

/* Suggestions and limits */
.suggestions { max-height: 220px; overflow-y: auto; contain: content; border: 1px solid var(--cw-border); border-radius: 12px; background: var(--cw-bg); box-shadow: 0 6px 18px rgba(20, 20, 40, 0.12); }
.suggestions ul { padding: 4px; }
.suggestion { display: flex; align-items: center; gap: 8px; padding: 6px 8px; border-radius: 8px; cursor: pointer; }
.suggestion.active { background: var(--cw-surface); }
.suggestion .avatar { margin-top: 0; width: 24px; height: 24px; }
.suggestion-name { font-weight: 650; }
.suggestion-args { color: var(--cw-muted); font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 12px; }
.suggestion-detail { color: var(--cw-muted); font-size: 12px; margin-inline-start: auto; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.suggestion-status { padding: 8px 12px; font-size: 12px; color: var(--cw-muted); }
.char-counter { font-size: 12px; color: var(--cw-muted); text-align: end; padding-inline-end: 52px; }
.char-counter.over { color: var(--cw-danger); font-weight: 650; }

/* Channel list */
.channel-list-view { flex: 1; min-height: 0; display: flex; flex-direction: column; }
.channel-row { display: flex; align-items: center; padding-inline-end: 8px; }
.channel-row .channel-item { flex: 1; min-width: 0; }
.menu-trigger.visible { opacity: 0.7; }
.archived-entry { margin: 4px 12px 12px; padding: 8px 12px; border: 0; border-radius: 10px; background: transparent; color: var(--cw-muted); cursor: pointer; text-align: start; }
.archived-entry:hover { background: var(--cw-surface); color: var(--cw-text); }
.new-conversation-button { margin: 10px 12px 4px; padding: 8px 12px; border: 1px dashed var(--cw-border); border-radius: 10px; background: transparent; color: var(--cw-accent-ink); font-weight: 650; cursor: pointer; text-align: start; }
.new-conversation { padding-top: 10px; }
.new-conversation-row { display: flex; align-items: center; gap: 8px; }
.pin-icon { vertical-align: -1px; flex: none; }
.pinned-label { display: inline-flex; align-items: center; gap: 3px; }
.muted-label { color: var(--cw-muted); font-weight: 400; font-size: 12px; }
.inline-icon { margin-inline-end: 4px; }

/* Composer: attachments, link previews, polls, locations, the SDK's notifications */
.panel-body { position: relative; }
.notifications, .attachment-previews, .link-previews, .attachments, .poll-options, .poll-answers, .sheet-body, .field { display: flex; flex-direction: column; gap: 4px; }
/* Empty, the live region takes no room (and no gap in the composer) but stays in place to be heard. */
.notifications:empty { display: contents; }
.attachment-previews, .link-previews { max-height: 148px; overflow-y: auto; }
.notification, .attachment-preview, .link-preview {
  display: flex; align-items: center; gap: 8px; padding: 4px; padding-inline-start: 8px; border: 1px solid var(--cw-border); border-radius: 10px;
  background: var(--cw-surface); font-size: 12px; line-height: 16px;
}
.attachment-preview, .link-preview { padding-inline-start: 4px; }
.notification.error, .attachment-preview[data-state="failed"], .attachment-preview[data-state="blocked"] { border-color: var(--cw-danger); }
.notification.error, .attachment-status.failed, .field-error { color: var(--cw-danger); }
.attachment-thumb, .link-preview-image { flex: none; width: 40px; height: 40px; border-radius: 6px; object-fit: cover; display: grid; place-items: center; color: var(--cw-muted); background: var(--cw-bg); }
.notification span, .attachment-info, .link-preview-text { flex: 1; min-width: 0; display: flex; flex-direction: column; }
.attachment-name, .link-preview-title, .attachment-status, .link-preview-detail, .file-card-name { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.attachment-name, .link-preview-title, .file-card-name, .link-card-title, .location-title, .poll-head { font-weight: 650; }
.attachment-status, .link-preview-detail, .sheet-text, .file-card-size, .poll-description, .poll-rule, .poll-foot, .link-card-site, .link-card-text { color: var(--cw-muted); font-size: 12px; }
.attachment-status { display: flex; align-items: center; gap: 6px; }
.attachment-status.failed { white-space: normal; }
.upload-progress { flex: 1; max-width: 120px; height: 4px; accent-color: var(--cw-accent); }
.composer-menu { position: relative; flex: none; }
.composer-tool {
  width: 40px; height: 40px; border-radius: 50%; border: 1px solid var(--cw-border); padding: 0;
  display: grid; place-items: center; cursor: pointer; background: var(--cw-surface); color: var(--cw-text);
}
.composer-tool[aria-expanded="true"] { border-color: var(--cw-accent); color: var(--cw-accent); }
.composer-menu-list { top: auto; bottom: 46px; inset-inline-start: 0; inset-inline-end: auto; min-width: 170px; }
.composer-menu-list .menu-item { display: flex; align-items: center; gap: 10px; }
.composer-menu-list svg, .poll-head svg, .location-title svg { flex: none; color: var(--cw-accent); }
.drop-overlay {
  position: absolute; inset: 8px; z-index: 4; display: grid; place-items: center; pointer-events: none;
  border: 2px dashed var(--cw-accent); border-radius: 12px; font-weight: 650; color: var(--cw-accent); background: var(--cw-bg);
}
.sheet { position: absolute; inset: 0; z-index: 3; display: flex; flex-direction: column; background: var(--cw-bg); }
.sheet-header, .sheet-footer { display: flex; align-items: center; justify-content: flex-end; gap: 8px; padding: 8px 16px; border-bottom: 1px solid var(--cw-border); }
.sheet-footer { border: 0; border-top: 1px solid var(--cw-border); }
.sheet-title { flex: 1; margin: 0; font-size: 15px; }
.sheet-body { flex: 1; min-height: 0; overflow-y: auto; gap: 14px; padding: 14px 16px; }
.field { border: 0; margin: 0; padding: 0; min-width: 0; gap: 6px; }
.field-label { font-size: 12px; font-weight: 650; color: var(--cw-muted); padding: 0; }
.field-error { font-size: 12px; }
.text-field {
  width: 100%; padding: 8px 10px; border-radius: 8px; border: 1px solid var(--cw-border); background: var(--cw-surface);
  color: var(--cw-text); font: inherit; outline: none;
}
.text-field:focus-visible { border-color: var(--cw-accent); }
.text-field[aria-invalid="true"] { border-color: var(--cw-danger); }
.text-field.narrow { width: 88px; }
.check { display: flex; align-items: center; gap: 8px; font-size: 13px; cursor: pointer; }
.check input { margin: 0; accent-color: var(--cw-accent); width: 16px; height: 16px; }
.inline-controls, .poll-add, .location-actions { display: flex; gap: 8px; align-items: center; }
.inline-controls .text-field, .poll-add .text-field { flex: 1; min-width: 0; }
.button:disabled, .composer-tool:disabled { opacity: 0.45; cursor: default; }
.button.secondary { background: var(--cw-surface); color: var(--cw-text); border: 1px solid var(--cw-border); }
.button.small { padding: 4px 10px; font-size: 12px; }

/* What messages carry: attachments, link cards, polls, locations */
.message-content { display: flex; flex-direction: column; align-items: flex-start; gap: 4px; min-width: 0; max-width: 100%; }
.message.own .message-content, .message.own .attachments { align-items: flex-end; }
.attachments { max-width: 100%; }
.attachment-image-link { display: block; line-height: 0; border-radius: 12px; overflow: hidden; max-width: 100%; }
.attachment-image, .attachment-video { display: block; max-width: 100%; height: auto; object-fit: cover; border-radius: 12px; background: var(--cw-surface); }
.attachment-audio, .file-card, .link-card, .poll-card, .location-card {
  display: flex; flex-direction: column; gap: 6px; width: 240px; max-width: 100%; padding: 8px 10px; border: 1px solid var(--cw-border);
  border-radius: 12px; background: var(--cw-bg); color: var(--cw-text); overflow: hidden; text-decoration: none;
}
.attachment-audio audio { width: 100%; height: 32px; }
.attachment-audio-title { font-size: 12px; font-weight: 600; }
/* A voice message: play, the waveform (a slider; the played bars are .on), time, speed. One row in
   the reading direction, so right to left mirrors it, bars and all; the bars shrink on a phone. */
.voice { flex-direction: row; align-items: center; width: auto; }
.voice-play { flex: none; width: 32px; height: 32px; border-radius: 50%; border: 0; padding: 0; display: grid; place-items: center; cursor: pointer; background: var(--cw-accent); color: var(--cw-accent-text); }
.voice-wave { width: 160px; height: 28px; display: flex; align-items: center; gap: 1px; cursor: pointer; }
.voice-wave:focus-visible { outline: 2px solid var(--cw-accent); outline-offset: 2px; }
.voice-wave span { flex: 1; pointer-events: none; background: var(--cw-muted); opacity: 0.45; }
.voice-wave .on { background: var(--cw-accent-ink); opacity: 1; }
.voice-time { font-size: 12px; color: var(--cw-muted); }
.voice-speed { border: 1px solid var(--cw-border); background: var(--cw-surface); border-radius: 12px; padding: 0 8px; height: 24px; font-size: 12px; cursor: pointer; }
.file-card { flex-direction: row; align-items: center; gap: 10px; }
.file-card-icon { flex: none; width: 36px; height: 36px; border-radius: 8px; display: grid; place-items: center; background: var(--cw-surface); color: var(--cw-accent); }
.file-card-text { min-width: 0; display: flex; flex-direction: column; }
.link-card { padding: 0; gap: 0; }
.link-card-image { display: block; width: 100%; height: 120px; object-fit: cover; background: var(--cw-surface); }
.link-card-body { display: flex; flex-direction: column; gap: 2px; margin: 8px; padding-inline-start: 8px; border-inline-start: 3px solid var(--cw-accent); }
.link-card-site, .poll-rule { font-size: 11px; text-transform: uppercase; letter-spacing: 0.4px; }
.link-card-text { display: -webkit-box; -webkit-line-clamp: 3; -webkit-box-orient: vertical; overflow: hidden; }
.poll-card { width: 260px; gap: 8px; padding: 10px 12px; }
.giphy { margin: 0; display: flex; flex-direction: column; gap: 2px; max-width: 100%; }
.giphy figcaption { color: var(--cw-muted); font-size: 12px; }
.giphy-preview { display: flex; flex-direction: column; gap: 6px; max-width: 100%; }
.giphy-actions { display: flex; gap: 6px; }
.poll-head, .location-title { display: flex; align-items: center; gap: 6px; }
.poll-options { gap: 6px; }
.poll-option {
  position: relative; overflow: hidden; width: 100%; display: flex; align-items: center; gap: 8px; padding: 7px 10px;
  border: 1px solid var(--cw-border); border-radius: 8px; background: var(--cw-bg); cursor: pointer; text-align: start;
}
.poll-option:disabled { cursor: default; }
.poll-option[aria-pressed="true"] { border-color: var(--cw-accent); }
.poll-option > span { position: relative; z-index: 1; }
.poll-check {
  flex: none; width: 16px; height: 16px; border-radius: 50%; border: 1.5px solid var(--cw-muted);
  display: grid; place-items: center; font-size: 10px; line-height: 1; color: var(--cw-accent-text);
}
.poll-option[aria-pressed="true"] .poll-check { background: var(--cw-accent); border-color: var(--cw-accent); }
.poll-option .poll-option-text { flex: 1; min-width: 0; overflow-wrap: anywhere; }
.poll-count { font-weight: 650; font-size: 12px; color: var(--cw-muted); }
.poll-option .poll-bar { position: absolute; z-index: 0; inset-inline-start: 0; top: 0; bottom: 0; background: color-mix(in srgb, var(--cw-accent) 14%, transparent); }
.poll-add .text-field { padding: 5px 8px; font-size: 12px; }
.poll-answers { font-size: 12px; }
.poll-foot { display: flex; justify-content: space-between; }
.poll-foot .link-button, .location-actions .link-button { color: var(--cw-danger); }
.location-card { gap: 4px; }
.location-card[data-live="true"] .location-title svg { color: #22a55b; }
.location-coords { font-family: ui-monospace, monospace; font-size: 12px; }
.location-live { font-size: 12px; color: #16803f; font-weight: 600; }
.location-actions { font-size: 12px; gap: 12px; }
.location-actions a { color: var(--cw-accent); font-weight: 600; }
.command-chip { flex: none; align-self: center; display: inline-flex; align-items: center; gap: 2px; padding: 2px 4px; padding-inline-start: 8px; border-radius: 12px; background: var(--cw-accent); color: var(--cw-accent-text); font-size: 12px; font-weight: 650; }
.command-chip button { border: 0; background: none; color: inherit; cursor: pointer; font-size: 14px; line-height: 1; padding: 0 4px; }
/* Last, to win over each field's own size: 16 px or more on a phone, or iOS zooms the page
   into a field the visitor taps. */
@media (max-width: 639.98px), (pointer: coarse) and (max-height: 500px) {
  .composer-input, .search-input, .member-search, .text-field { font-size: 16px; }
}
`;
