// A short, quiet two-note chime, made by Web Audio (no file to embed or fetch). It plays only
// after the visitor has used the page (browsers refuse sound before that anyway), and once per
// message however many of the site's tabs are open: the first tab to take the message's lock
// plays, the others find it taken.

const LOCK_HOLD_MS = 3000;
let context: AudioContext | null = null;

function play() {
  const Context = window.AudioContext ?? (window as unknown as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
  if (!Context) return;
  context ??= new Context();
  const start = context.currentTime;
  for (const [offset, frequency] of [[0, 880], [0.12, 1318.5]] as const) {
    const tone = context.createOscillator();
    const gain = context.createGain();
    tone.frequency.value = frequency;
    gain.gain.setValueAtTime(0.0001, start + offset);
    gain.gain.exponentialRampToValueAtTime(0.08, start + offset + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, start + offset + 0.3);
    tone.connect(gain).connect(context.destination);
    tone.start(start + offset);
    tone.stop(start + offset + 0.32);
  }
}

/** Whether the visitor has interacted with this page: before that, autoplay rules forbid sound. */
const hasInteracted = () => (navigator as Navigator & { userActivation?: { hasBeenActive: boolean } }).userActivation?.hasBeenActive ?? false;

/** Chimes for one message, in one tab of the site only. */
export function chime(messageId: string) {
  if (!hasInteracted()) return;
  const locks = navigator.locks;
  if (!locks) return play();
  void locks.request(`chat-widget-chime:${messageId}`, { ifAvailable: true }, async (lock) => {
    if (!lock) return; // another tab has it
    play();
    await new Promise((resolve) => setTimeout(resolve, LOCK_HOLD_MS));
  });
}
