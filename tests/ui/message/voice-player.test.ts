// The voice message player: its bars from the attachment's waveform (and from bad data), play and
// pause with one playing on the page, seeking from the keyboard and the pointer, the speed, and
// the total from the attachment while a recording's audio.duration is Infinity.
import { fireEvent, render } from '@testing-library/preact';
import { createElement, type ComponentChild } from 'preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { en } from '../../../src/i18n/en';
import { createTranslate } from '../../../src/i18n/translate';
import { LocalizationProvider } from '../../../src/ui/common/localization';
import { MessageAttachments } from '../../../src/ui/message/attachments';
import { VoicePlayer } from '../../../src/ui/message/voice-player';

type Props = { src?: string; duration?: number; waveform?: unknown };

const player = (props: Props = {}, dir: 'ltr' | 'rtl' = 'ltr') => {
  const element: ComponentChild = createElement(VoicePlayer, { src: 'https://cdn.example/voice.webm', ...props });
  const { container } = render(createElement(LocalizationProvider, { value: { locale: dir === 'rtl' ? 'ar' : 'en', dir, t: createTranslate('en', [en]) } }, element));
  const root = container.lastElementChild as HTMLElement;
  const get = <T extends Element = HTMLElement>(selector: string) => root.querySelector(selector) as T;
  return {
    root,
    play: get<HTMLButtonElement>('.voice-play'),
    wave: get('[role="slider"]'),
    time: get('.voice-time'),
    speed: get<HTMLButtonElement>('.voice-speed'),
    audio: get<HTMLAudioElement>('audio'),
  };
};
const heights = (wave: HTMLElement) => [...wave.children].map((bar) => (bar as HTMLElement).style.height);
const played = (wave: HTMLElement) => [...wave.children].filter((bar) => bar.classList.contains('on')).length;
const fire = (audio: HTMLAudioElement, type: string) => fireEvent(audio, new Event(type));

// A browser's play() and pause() fire play and pause; happy-dom's are stubbed to do that alone.
let paused: WeakMap<HTMLMediaElement, boolean>;
beforeEach(() => {
  paused = new WeakMap();
  vi.spyOn(HTMLMediaElement.prototype, 'play').mockImplementation(function (this: HTMLMediaElement) {
    if (paused.get(this) === false) return Promise.resolve();
    paused.set(this, false);
    this.dispatchEvent(new Event('play'));
    return Promise.resolve();
  });
  vi.spyOn(HTMLMediaElement.prototype, 'pause').mockImplementation(function (this: HTMLMediaElement) {
    if (paused.get(this) === false) this.dispatchEvent(new Event('pause'));
    paused.set(this, true);
  });
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe('the voice player', () => {
  it('draws 40 bars from the waveform: a bar is the loudest of its points, clamped to 0..1', () => {
    // 100 points, quiet but for one loud point and one too loud: bars 20 and 30 are full.
    const waveform = Array.from({ length: 100 }, (_, i) => (i === 50 ? 1 : i === 76 ? 7 : 0.2));
    const { wave } = player({ duration: 12, waveform });
    const bars = heights(wave);
    expect(bars).toHaveLength(40);
    expect(bars[20]).toBe('100%');
    expect(bars[30]).toBe('100%');
    expect(bars.filter((height) => height === '32%')).toHaveLength(38); // 15% + 85% × 0.2
    // Fewer points than bars still fill every bar; below 0 is 0.
    expect(heights(player({ duration: 3, waveform: [-1, 0.6] }).wave)).toEqual([...Array(20).fill('15%'), ...Array(20).fill('66%')]);
  });

  it('draws low flat bars when the waveform is missing or not an array of finite numbers', () => {
    for (const waveform of [undefined, null, 'loud', { length: 40 }, [0.5, Number.NaN], [0.5, Infinity], [0.5, '0.7'], []]) {
      const bars = heights(player({ duration: 3, waveform }).wave);
      expect(bars, JSON.stringify(waveform)).toEqual(Array(40).fill('15%'));
    }
  });

  it('plays and pauses, the button saying what it will do', () => {
    const { play, audio, root } = player({ duration: 12 });
    expect(root.getAttribute('part')).toBe('voice-attachment');
    expect(audio.getAttribute('preload')).toBe('none');
    expect(audio.hasAttribute('controls')).toBe(false);
    expect(play.getAttribute('aria-label')).toBe('Play voice message');
    fireEvent.click(play);
    expect(HTMLMediaElement.prototype.play).toHaveBeenCalledTimes(1);
    expect(play.getAttribute('aria-label')).toBe('Pause voice message');
    fireEvent.click(play);
    expect(HTMLMediaElement.prototype.pause).toHaveBeenCalledTimes(1);
    expect(play.getAttribute('aria-label')).toBe('Play voice message');
  });

  it('plays one at a time: starting one pauses the one playing', () => {
    const first = player({ duration: 12 });
    const second = player({ duration: 5 });
    fireEvent.click(first.play);
    expect(first.play.getAttribute('aria-label')).toBe('Pause voice message');
    fireEvent.click(second.play);
    expect(first.play.getAttribute('aria-label')).toBe('Play voice message');
    expect(second.play.getAttribute('aria-label')).toBe('Pause voice message');
    expect(HTMLMediaElement.prototype.pause).toHaveBeenCalled();
  });

  it('shows the elapsed time while playing, and goes back to the start and the total when it ends', () => {
    const { play, audio, time } = player({ duration: 12.4 });
    expect(time.textContent).toBe('0:12');
    fireEvent.click(play);
    expect(time.textContent).toBe('0:00');
    audio.currentTime = 8;
    fire(audio, 'timeupdate');
    expect(time.textContent).toBe('0:08');
    audio.pause();
    fire(audio, 'ended');
    expect(audio.currentTime).toBe(0);
    expect(time.textContent).toBe('0:12');
    expect(play.getAttribute('aria-label')).toBe('Play voice message');
  });

  it('stays usable after a media error or a refused play()', async () => {
    const { play, audio } = player({ duration: 12 });
    fireEvent.click(play);
    fire(audio, 'error');
    expect(play.getAttribute('aria-label')).toBe('Play voice message');
    vi.mocked(HTMLMediaElement.prototype.play).mockImplementationOnce(function (this: HTMLMediaElement) {
      this.dispatchEvent(new Event('play'));
      return Promise.reject(new DOMException('no', 'NotSupportedError'));
    });
    paused = new WeakMap();
    fireEvent.click(play);
    await vi.waitFor(() => expect(play.getAttribute('aria-label')).toBe('Play voice message'));
  });

  it('is a slider: arrows move 5 seconds, Home and End go to the ends, in the reading direction', () => {
    const { wave, audio } = player({ duration: 12.4 });
    const now = () => [wave.getAttribute('aria-valuenow'), wave.getAttribute('aria-valuetext')];
    expect([wave.getAttribute('tabindex'), wave.getAttribute('aria-valuemin'), wave.getAttribute('aria-valuemax')]).toEqual(['0', '0', '12.4']);
    expect(wave.getAttribute('aria-label')).toBe('Voice message 0:12');
    expect(now()).toEqual(['0', '0:00 of 0:12']);
    fireEvent.keyDown(wave, { key: 'ArrowRight' });
    expect(now()).toEqual(['5', '0:05 of 0:12']);
    expect(audio.currentTime).toBe(5);
    fireEvent.keyDown(wave, { key: 'ArrowUp' });
    expect(now()).toEqual(['10', '0:10 of 0:12']);
    fireEvent.keyDown(wave, { key: 'ArrowUp' });
    expect(now()).toEqual(['12', '0:12 of 0:12']); // no further than the end
    fireEvent.keyDown(wave, { key: 'ArrowLeft' });
    expect(audio.currentTime).toBeCloseTo(7.4);
    fireEvent.keyDown(wave, { key: 'ArrowDown' });
    expect(audio.currentTime).toBeCloseTo(2.4);
    fireEvent.keyDown(wave, { key: 'Home' });
    expect(now()[0]).toBe('0');
    fireEvent.keyDown(wave, { key: 'ArrowDown' });
    expect(now()[0]).toBe('0'); // no further than the start
    fireEvent.keyDown(wave, { key: 'End' });
    expect(audio.currentTime).toBe(12.4);
    expect(played(wave)).toBe(40);
    // Right to left, left is ahead.
    const rtl = player({ duration: 20 }, 'rtl');
    fireEvent.keyDown(rtl.wave, { key: 'ArrowLeft' });
    expect(rtl.wave.getAttribute('aria-valuenow')).toBe('5');
    fireEvent.keyDown(rtl.wave, { key: 'ArrowRight' });
    expect(rtl.wave.getAttribute('aria-valuenow')).toBe('0');
  });

  it('seeks to where the waveform is clicked, from the right when right to left', () => {
    for (const [dir, expected] of [['ltr', 5], ['rtl', 15]] as const) {
      const { wave, audio } = player({ duration: 20 }, dir);
      Object.defineProperty(wave, 'clientWidth', { value: 160 });
      fireEvent.click(wave, { offsetX: 40 });
      expect(audio.currentTime).toBe(expected);
      expect(wave.getAttribute('aria-valuenow')).toBe(String(expected));
      expect(played(wave)).toBe(expected * 2); // 40 bars over 20 s
    }
  });

  it('cycles the speed 1× → 1.5× → 2× → 1×, kept across pause and play', () => {
    const { speed, play, audio } = player({ duration: 12 });
    const shown = () => [speed.textContent, speed.getAttribute('aria-label'), audio.playbackRate];
    expect(shown()).toEqual(['1×', 'Playback speed 1×', 1]);
    fireEvent.click(speed);
    expect(shown()).toEqual(['1.5×', 'Playback speed 1.5×', 1.5]);
    fireEvent.click(play);
    fireEvent.click(play);
    fireEvent.click(speed);
    expect(shown()).toEqual(['2×', 'Playback speed 2×', 2]);
    expect(audio.defaultPlaybackRate).toBe(2); // what a new load starts at
    fireEvent.click(speed);
    expect(shown()).toEqual(['1×', 'Playback speed 1×', 1]);
  });

  it("takes the total from the attachment while the audio's duration is Infinity (a webm recording)", () => {
    vi.spyOn(HTMLMediaElement.prototype, 'duration', 'get').mockReturnValue(Infinity);
    const { wave, time, audio, play } = player({ duration: 7 });
    fireEvent.click(play);
    audio.currentTime = 2;
    fire(audio, 'timeupdate');
    expect(time.textContent).toBe('0:02');
    expect([wave.getAttribute('aria-valuemax'), wave.getAttribute('aria-valuetext')]).toEqual(['7', '0:02 of 0:07']);
    // With no duration in the attachment, a finite one of the audio's, once it has one.
    const unknown = player({});
    expect(unknown.wave.getAttribute('aria-valuetext')).toBe('0:00 of 0:00');
    fireEvent.click(unknown.play);
    vi.spyOn(HTMLMediaElement.prototype, 'duration', 'get').mockReturnValue(9);
    unknown.audio.currentTime = 1;
    fire(unknown.audio, 'timeupdate');
    expect(unknown.wave.getAttribute('aria-valuetext')).toBe('0:01 of 0:09');
  });

  it("replaces a voice recording's native player, and keeps it for audio files", () => {
    const { container } = render(
      createElement(MessageAttachments, {
        attachments: [
          { type: 'voiceRecording', asset_url: 'https://cdn.example/v.ogg', duration: 3.2, waveform_data: [0.1, 0.9] },
          { type: 'audio', asset_url: 'https://cdn.example/song.mp3', title: 'song.mp3' },
        ],
      }),
    );
    const voice = container.querySelector('[part~="voice-attachment"]') as HTMLElement;
    expect(voice.querySelector('[role="slider"]')?.getAttribute('aria-label')).toBe('Voice message 0:03');
    expect(voice.querySelector('audio')?.getAttribute('src')).toBe('https://cdn.example/v.ogg');
    expect(container.querySelector('[part~="audio-attachment"] audio')?.hasAttribute('controls')).toBe(true);
  });
});
