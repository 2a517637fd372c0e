// The first of the widget's two stylesheets, adopted into every instance's shadow root at once:
// the host, the theme, the resets and the launcher. The panel's (widget.styles.ts) is parsed
// only when a panel is first shown, so a closed bubble does not pay for it.
// Isolation: host-page rules cannot reach inside the shadow root, and `.widget` starts
// from `all: initial` so nothing inherited from the page (a huge font size, a letter
// spacing, uppercase text) leaks in. Sizes are in px, never rem: a page's root font
// size must not resize the panel. Public API: the --chat-widget-* properties and parts.
export const baseStyles = /* css */ `
:host {
  display: block;
  --chat-widget-accent: #4f46e5;
  --chat-widget-accent-text: #ffffff;
  --chat-widget-background: #ffffff;
  --chat-widget-surface: #f4f4f7;
  --chat-widget-text: #1c1c28;
  --chat-widget-muted: #6b6b80;
  --chat-widget-border: #e3e3ea;
  --chat-widget-danger: #c81e3a;
  --chat-widget-radius: 16px;
  --chat-widget-font: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
  --chat-widget-width: 380px;
  --chat-widget-height: 560px;
  --chat-widget-offset: 20px;
  --chat-widget-z-index: 2147483647;
}
:host([hidden]) { display: none; }
/* Inline: the page's own height for the element wins over this default (outer rules beat :host). */
:host([mode="inline"]) { height: var(--chat-widget-height); }

.widget {
  all: initial;
  display: block;
  box-sizing: border-box;
  font-family: var(--chat-widget-font);
  font-size: 14px;
  line-height: 20px;
  color: var(--cw-text);
  text-align: start;
  --cw-accent: var(--chat-widget-accent);
  --cw-accent-text: var(--chat-widget-accent-text);
  /* The accent as text on the panel's background: the accent itself, lightened in dark themes (AA contrast). */
  --cw-accent-ink: var(--chat-widget-accent);
  --cw-bg: var(--chat-widget-background);
  --cw-surface: var(--chat-widget-surface);
  --cw-text: var(--chat-widget-text);
  --cw-muted: var(--chat-widget-muted);
  --cw-border: var(--chat-widget-border);
  --cw-danger: var(--chat-widget-danger);
}
.widget[data-theme="dark"] {
  --cw-bg: #17171f; --cw-surface: #23232e; --cw-text: #ececf3; --cw-muted: #a0a0b4; --cw-border: #33333f; --cw-danger: #ff6b81;
    --cw-accent-ink: color-mix(in srgb, var(--chat-widget-accent) 45%, #fff);
}
@media (prefers-color-scheme: dark) {
  .widget[data-theme="auto"] {
    --cw-bg: #17171f; --cw-surface: #23232e; --cw-text: #ececf3; --cw-muted: #a0a0b4; --cw-border: #33333f; --cw-danger: #ff6b81;
    --cw-accent-ink: color-mix(in srgb, var(--chat-widget-accent) 45%, #fff);
  }
}
/* Resets carry no weight (:where), so every component rule below wins over them. */
:where(.widget) *, :where(.widget) *::before, :where(.widget) *::after { box-sizing: border-box; }
:where(.widget) :where(button, textarea, input) { font: inherit; color: inherit; margin: 0; }
:where(.widget) :where(h2, p, ol, ul) { margin: 0; padding: 0; }
:where(.widget) :where(ol, ul) { list-style: none; }

/* Launcher and floating panel */
.launcher {
  position: fixed; right: var(--chat-widget-offset); bottom: var(--chat-widget-offset);
  z-index: var(--chat-widget-z-index);
  width: 56px; height: 56px; border-radius: 50%; border: 0; padding: 0;
  display: grid; place-items: center; cursor: pointer;
  background: var(--cw-accent); color: var(--cw-accent-text);
  box-shadow: 0 6px 20px rgba(20, 20, 40, 0.28);
  transition: transform 120ms ease;
}
.widget[data-position="left"] .launcher { right: auto; left: var(--chat-widget-offset); }
.launcher:hover { transform: scale(1.05); }
@media (prefers-reduced-motion: reduce) { .launcher { transition: none; } }
.launcher:focus-visible, .widget button:focus-visible, .composer-input:focus-visible {
  outline: 2px solid var(--cw-accent); outline-offset: 2px;
}
.badge {
  position: absolute; top: -4px; right: -4px; min-width: 22px; height: 22px; padding: 0 6px;
  border-radius: 11px; background: var(--cw-danger); color: #fff;
  font-size: 12px; line-height: 22px; font-weight: 700; text-align: center;
  border: 2px solid var(--cw-bg);
}
.inline-badge { position: static; border: 0; }
/* The panel (an element rendering the UI) adds no box of its own. */
chat-widget-panel { display: contents; }
/* The panel's place while the chat's runtime loads, or when it cannot start (no panel sheet yet). */
.placeholder {
  position: fixed; right: var(--chat-widget-offset); bottom: calc(var(--chat-widget-offset) + 68px);
  z-index: var(--chat-widget-z-index); width: min(var(--chat-widget-width), calc(100vw - 2 * var(--chat-widget-offset)));
  padding: 16px; border-radius: var(--chat-widget-radius); background: var(--cw-bg);
  border: 1px solid var(--cw-border); box-shadow: 0 12px 40px rgba(20, 20, 40, 0.24);
}
.widget[data-position="left"] .placeholder { right: auto; left: var(--chat-widget-offset); }
.widget[data-mode="inline"] .placeholder { position: static; width: auto; box-shadow: none; }
.placeholder p { margin: 4px 0 12px; color: var(--cw-muted); }
/* Here, not in the panel's sheet, so the placeholder's "Try again" has it too. */
.button {
  border: 0; border-radius: 8px; padding: 8px 14px; cursor: pointer;
  background: var(--cw-accent); color: var(--cw-accent-text); font-weight: 600;
}

`;
