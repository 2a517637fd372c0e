// The recorder's rules, carried by its own script and adopted into the panel's shadow root
// when it first shows (element/styles.ts): the single file does not carry them.
export const recorderStyles = /* css */ `
.recorder { flex: 1; min-width: 0; display: flex; align-items: center; gap: 8px; min-height: 40px; }
.recorder-slide { flex: none; font-size: 12px; color: var(--cw-muted); padding-inline-start: 4px; }
.recorder-status { flex: none; display: flex; align-items: center; gap: 6px; font-size: 14px; font-variant-numeric: tabular-nums; }
.recorder-dot { width: 10px; height: 10px; border-radius: 50%; background: var(--cw-muted); }
.recorder-dot.on { background: var(--cw-danger); animation: recorder-blink 1s steps(2) infinite; }
.recorder-meter { flex: 1; min-width: 0; height: 28px; display: flex; align-items: center; justify-content: flex-end; gap: 2px; overflow: hidden; }
.recorder-meter i { flex: 1; max-width: 4px; height: 100%; border-radius: 2px; background: var(--cw-accent); transform-origin: center; transition: transform 60ms linear; }
.recorder-stop.held { transform: scale(1.2); box-shadow: 0 0 0 6px color-mix(in srgb, var(--cw-danger) 25%, transparent); }
@keyframes recorder-blink { 50% { opacity: 0.3; } }
@media (prefers-reduced-motion: reduce) { .recorder-dot.on { animation: none; } .recorder-meter i { transition: none; } }
`;
