// One voice recording: the microphone through the browser's MediaRecorder, its level for the
// meter, and the waveform the provider's clients send with a voice message (about 100
// amplitudes from 0 to 1), taken from the same level readings while it records, so nothing has
// to be decoded afterwards.

/** The longest recording: a chat's voice message is a few sentences, and 5 minutes of Opus is about 1.2 MB. */
export const MAX_DURATION_S = 300;
/** Points in a recording's waveform, as the provider's own clients send. */
const WAVEFORM_POINTS = 100;
/** How often the level is read (for the meter and the waveform). */
const SAMPLE_MS = 50;
/** MediaRecorder hands over what it has recorded this often, so the size is known as it grows. */
const CHUNK_MS = 1000;

/** What was recorded, ready to upload. */
export interface Recorded {
  file: File;
  /** Seconds. */
  duration: number;
  waveform: number[];
}

/** Why a recording could not start, as the catalogue names it (`recorder.<why>`). */
export type StartFailure = 'denied' | 'noMicrophone' | 'busy' | 'failed';
/** Why a recording stopped on its own: a limit, or the browser (the microphone unplugged or taken away). */
export type StoppedBy = 'maxDuration' | 'maxSize' | 'browser';

// Opus in WebM where the browser records it (Chromium, Firefox), else AAC in MP4 (Safari).
const CONTAINERS = [
  ['audio/webm;codecs=opus', 'webm'],
  ['audio/mp4', 'm4a'],
  ['audio/ogg;codecs=opus', 'ogg'],
] as const;

/** The container this browser records voice in: its MIME type (without codecs: what upload settings name) and file extension. */
export function voiceFormat(): { type: string; extension: string } {
  const [type, extension] = CONTAINERS.find(([candidate]) => MediaRecorder.isTypeSupported(candidate)) ?? ['audio/webm', 'webm'];
  return { type: type.split(';')[0]!, extension };
}

/** A getUserMedia or MediaRecorder error as one of the reasons the visitor is told. */
export function startFailure(error: unknown): StartFailure {
  const name = (error as { name?: string } | null)?.name;
  if (name === 'NotAllowedError' || name === 'SecurityError') return 'denied';
  if (name === 'NotFoundError' || name === 'OverconstrainedError') return 'noMicrophone';
  if (name === 'NotReadableError' || name === 'AbortError') return 'busy';
  return 'failed';
}

/** `count` points from the level readings: each the loudest reading of its stretch, scaled so the loudest is 1. */
export function waveformOf(levels: number[], count = WAVEFORM_POINTS): number[] {
  if (levels.length === 0) return [];
  const points = Array.from({ length: count }, (_, index) => {
    const from = Math.floor((index * levels.length) / count);
    const to = Math.max(from + 1, Math.floor(((index + 1) * levels.length) / count));
    return Math.max(...levels.slice(from, to));
  });
  const loudest = Math.max(...points);
  return points.map((point) => (loudest > 0 ? Math.round((point / loudest) * 100) / 100 : 0));
}

export interface RecordingOptions {
  /** The app's upload size limit: the recording stops before its file would pass it. */
  maxBytes: number;
  /** The latest level, 0 to 1, a few times a second. */
  onLevel: (level: number) => void;
  /** It stopped by itself; `finish()` then gives what was recorded. */
  onStopped: (by: StoppedBy) => void;
}

/**
 * Records from the microphone until `finish()` (what was recorded) or `cancel()` (nothing).
 * Starting asks for the microphone: it throws a StartFailure when that is refused or missing.
 */
export async function startRecording({ maxBytes, onLevel, onStopped }: RecordingOptions) {
  const format = voiceFormat();
  let stream: MediaStream;
  try {
    stream = await navigator.mediaDevices.getUserMedia({ audio: { echoCancellation: true, noiseSuppression: true } });
  } catch (error) {
    throw startFailure(error);
  }
  const release = () => stream.getTracks().forEach((track) => track.stop());
  const levels: number[] = [];
  const chunks: Blob[] = [];
  let bytes = 0;
  let startedAt = 0;
  let stoppedAt = 0;
  let reading: ReturnType<typeof setInterval> | undefined;
  let audio: AudioContext | undefined;
  const end = () => {
    clearInterval(reading);
    release();
    void audio?.close().catch(() => undefined);
  };
  let recorder: MediaRecorder;
  let stopped: Promise<void>;
  try {
    recorder = new MediaRecorder(stream, { mimeType: MediaRecorder.isTypeSupported(format.type) ? format.type : undefined, audioBitsPerSecond: 32000 });
    const stopAt = (by: StoppedBy) => {
      if (recorder.state !== 'recording') return;
      stoppedAt = performance.now();
      recorder.stop();
      onStopped(by);
    };
    recorder.addEventListener('dataavailable', (event) => {
      if (event.data.size === 0) return;
      chunks.push(event.data);
      bytes += event.data.size;
      // Stop while one more second still fits under the limit.
      if (bytes + event.data.size * 2 > maxBytes) stopAt('maxSize');
    });
    stopped = new Promise<void>((resolve) =>
      recorder.addEventListener('stop', () => {
        // Stopped by the browser (the track ended, an error): what was recorded is still kept.
        if (!stoppedAt) {
          stoppedAt = performance.now();
          onStopped('browser');
        }
        resolve();
      }),
    );
    // The level: the loudness (root mean square) of the last few milliseconds of sound. Without
    // it (no AudioContext) the recording still works, with a flat meter and waveform.
    let analyser: AnalyserNode | undefined;
    try {
      audio = new AudioContext();
      analyser = audio.createAnalyser();
      analyser.fftSize = 1024;
      audio.createMediaStreamSource(stream).connect(analyser);
    } catch {
      analyser = undefined;
    }
    const samples = new Float32Array(analyser?.fftSize ?? 0);
    recorder.start(CHUNK_MS);
    startedAt = performance.now();
    reading = setInterval(() => {
      let level = 0;
      if (analyser) {
        analyser.getFloatTimeDomainData(samples);
        let sum = 0;
        for (const sample of samples) sum += sample * sample;
        // Speech rarely passes a third of full scale: scaled so that a voice fills the meter.
        level = Math.min(1, Math.sqrt(sum / samples.length) * 3);
      }
      levels.push(level);
      onLevel(level);
      if (performance.now() - startedAt >= MAX_DURATION_S * 1000) stopAt('maxDuration');
    }, SAMPLE_MS);
  } catch (error) {
    end();
    throw startFailure(error);
  }

  return {
    /** Seconds recorded so far. */
    elapsed: () => ((stoppedAt || performance.now()) - startedAt) / 1000,
    /** Stops (if still recording) and gives the recording; null when nothing was recorded. */
    async finish(): Promise<Recorded | null> {
      if (recorder.state === 'recording') {
        stoppedAt = performance.now();
        recorder.stop();
      }
      await stopped;
      end();
      const duration = Math.round((stoppedAt - startedAt) / 100) / 10;
      if (bytes === 0 || duration <= 0) return null;
      const name = `voice-message-${new Date().toISOString().replace(/[:.]/g, '-')}.${format.extension}`;
      return { file: new File(chunks, name, { type: format.type }), duration, waveform: waveformOf(levels) };
    },
    cancel() {
      stoppedAt ||= performance.now();
      if (recorder.state !== 'inactive') recorder.stop();
      end();
    },
  };
}

export type Recording = Awaited<ReturnType<typeof startRecording>>;
