// A voice message's player: play/pause, the waveform (a seek slider), the time and the speed.
// The recorder's "listen back" uses it too, over a blob: URL, so it needs nothing but its props.
import { useRef, useState } from 'react';
import { PlayIcon } from '../common/icons';
import { useLocalization } from '../common/localization';

const BARS = 40; // 3 px wide, 1 px apart: 160 px, which shrinks on a narrow phone

/** Seconds as m:ss ("0:07"). */
export const minutes = (seconds: number) => ((seconds = Math.round(seconds)), `${(seconds / 60) | 0}:${String(seconds % 60).padStart(2, '0')}`);

// The one playing on the page: starting another pauses it.
let playing: HTMLAudioElement | undefined;

export function VoicePlayer({ src, duration, waveform }: { src: string; duration?: number; waveform?: unknown }) {
  const { t, dir } = useLocalization();
  const audio = useRef<HTMLAudioElement>(null);
  const [on, setOn] = useState(false);
  const [at, setAt] = useState(0); // seconds played
  const [rate, setRate] = useState(1);
  // Other people's clients send the waveform: anything but an array of finite numbers is none
  // (low flat bars).
  const data: number[] = Array.isArray(waveform) && waveform.every(Number.isFinite) ? waveform : [];
  const n = data.length / BARS;
  // Chromium records audio/webm with no duration in its header (audio.duration is Infinity until
  // played through): the attachment's duration first, a finite one of the audio's otherwise.
  const total = [duration, audio.current?.duration].find((d) => d! > 0 && d! < Infinity) ?? 0;
  const time = minutes(total);
  const speed = `${rate}×`;
  const rtl = dir == 'rtl';
  // Setting the time before the audio has loaded fires no timeupdate: the state follows here.
  const seek = (to: number) => setAt((audio.current!.currentTime = Math.min(Math.max(to, 0), total) || 0)); // NaN would throw

  return (
    <div className="attachment-audio voice" part="voice-attachment">
      <button
        type="button"
        className="voice-play"
        aria-label={t(on ? 'voice.pause' : 'voice.play')}
        onClick={() => {
          const el = audio.current!;
          if (on) return el.pause();
          playing?.pause();
          playing = el;
          el.play().catch(() => setOn(false));
        }}
      >
        <PlayIcon pause={on} />
      </button>
      <div
        className="voice-wave"
        role="slider"
        tabIndex={0}
        aria-label={t('message.voice', { duration: time })}
        aria-valuemin={0}
        aria-valuemax={total}
        aria-valuenow={Math.round(at)}
        aria-valuetext={t('voice.position', { elapsed: minutes(at), duration: time })}
        onKeyDown={(event) => {
          // Left and right follow the reading direction; up and down do not.
          const ahead = rtl ? -5 : 5;
          const to = { Home: 0, End: total, ArrowUp: at + 5, ArrowDown: at - 5, ArrowRight: at + ahead, ArrowLeft: at - ahead }[event.key];
          if (to !== undefined) event.preventDefault(), seek(to);
        }}
        onClick={(event) => {
          const x = event.nativeEvent.offsetX / event.currentTarget.clientWidth; // the bars let pointers through
          seek((rtl ? 1 - x : x) * total);
        }}
      >
        {/* A bar is the loudest point of its stretch, at most 1; the played ones are .on (a class,
            cheap to change 4 times a second). */}
        {Array.from({ length: BARS }, (_, i) => (
          <span
            key={i}
            className={i < (at / total) * BARS ? 'on' : undefined}
            style={{ height: `${15 + 85 * Math.min(1, data.slice(i * n, Math.ceil(i * n + n)).reduce((a, b) => Math.max(a, b), 0))}%` }}
          />
        ))}
      </div>
      <span className="voice-time">{minutes(on || at ? at : total)}</span>
      <button
        type="button"
        className="voice-speed"
        aria-label={t('voice.speed', { speed })}
        // 1× → 1.5× → 2× → 1×; the default rate too, which a new src (listening back) starts at
        onClick={() => setRate((audio.current!.playbackRate = audio.current!.defaultPlaybackRate = rate < 2 ? rate + 0.5 : 1))}
      >
        {speed}
      </button>
      <audio
        ref={audio}
        src={src}
        preload="none"
        onPlay={() => setOn(true)}
        onPause={() => setOn(false)}
        onError={() => setOn(false)} // the element stays "playing" after an error
        onTimeUpdate={(event) => setAt(event.currentTarget.currentTime)}
        onEnded={(event) => setAt((event.currentTarget.currentTime = 0))} // back to the start, idle
      />
    </div>
  );
}
