// Reads a Chromium performance trace (Tracing domain, as Playwright's browser.startTracing
// returns it) for one page load: the work of the page's renderer main thread.
export type TraceEvent = {
  name: string;
  cat: string;
  ph: string;
  ts: number;
  dur?: number;
  /** Thread (CPU) time of a complete event, µs. */
  tdur?: number;
  pid: number;
  tid: number;
  args?: { name?: string; data?: { url?: string; message?: string; documentLoaderURL?: string }; beginData?: { url?: string } };
};

/** Categories for `browser.startTracing`: top-level tasks, parsing, script evaluation. */
export const TRACE_CATEGORIES = ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8'];
/** With these too, a trace also marks each navigation's start (the page's `performance.now()` zero). */
export const NAVIGATION_CATEGORIES = [...TRACE_CATEGORIES, 'blink.user_timing'];

/** A long task in the sense of the Long Tasks API and total blocking time: over 50 ms. */
const LONG_TASK_MS = 50;

export type MainThreadWork = {
  /** Sum of the main thread's top-level tasks, ms (wall time, as DevTools shows them). */
  busyMs: number;
  /** The same tasks' thread time, ms: what the thread itself ran, less waiting on other processes. */
  cpuMs: number;
  /** Sum over long tasks of their time beyond 50 ms. */
  blockingMs: number;
  longTasks: number;
  longestMs: number;
  /** Main-thread time evaluating the given script (compile on the main thread and run), ms. */
  scriptMs: number;
};

export function parse(trace: Buffer): TraceEvent[] {
  const json = JSON.parse(trace.toString('utf8')) as { traceEvents: TraceEvent[] } | TraceEvent[];
  return Array.isArray(json) ? json : json.traceEvents;
}

/** Total length of the union of intervals (nested events are counted once). */
function unionMs(intervals: Array<{ ts: number; dur: number }>): number {
  const sorted = [...intervals].sort((a, b) => a.ts - b.ts);
  let total = 0;
  let end = -Infinity;
  for (const { ts, dur } of sorted) {
    const stop = ts + dur;
    if (stop <= end) continue;
    total += stop - Math.max(ts, end);
    end = stop;
  }
  return total / 1000;
}

/**
 * The main-thread work of the renderer that parsed `pageUrl`: its top-level tasks (RunTask
 * events that are not inside another), and the evaluation of `scriptUrl` (EvaluateScript for a
 * classic script; for a module, its main-thread compile and every module evaluation). With
 * `untilMs` (ms after the navigation's start, as the page's `performance.now()`; the trace must
 * have NAVIGATION_CATEGORIES), only the tasks that began before then.
 */
export function mainThreadWork(trace: Buffer | TraceEvent[], pageUrl: string, script?: { url: string; module: boolean }, untilMs?: number): MainThreadWork {
  const events = Array.isArray(trace) ? trace : parse(trace);
  const parser = events.find((e) => e.name === 'ParseHTML' && e.args?.beginData?.url === pageUrl);
  if (!parser) throw new Error(`no renderer parsed ${pageUrl} in the trace`);
  const onThread = events.filter((e) => e.pid === parser.pid && e.tid === parser.tid && e.ph === 'X' && e.dur !== undefined);
  // From the navigation on: tasks that ended before the page was committed were the previous
  // document's (the new tab's about:blank, where the harness's init script also runs).
  const commit = onThread.find((e) => e.name === 'CommitLoad' && e.args?.data?.url === pageUrl);

  let end = Infinity;
  if (untilMs !== undefined) {
    const start = events.find((e) => e.name === 'navigationStart' && e.args?.data?.documentLoaderURL === pageUrl);
    if (!start) throw new Error(`no navigationStart of ${pageUrl} in the trace`);
    end = start.ts + untilMs * 1000;
  }
  const tasks = topLevelTasks(onThread).filter((task) => (!commit || task.ts + task.dur > commit.ts) && task.ts < end);
  const durations = tasks.map((task) => task.dur / 1000);
  const long = durations.filter((ms) => ms > LONG_TASK_MS);

  const scriptEvents = script
    ? onThread.filter(
        (e) =>
          (e.name === 'EvaluateScript' && e.args?.data?.url === script.url) ||
          (script.module && e.name === 'v8.compileModule' && e.args?.data?.url === script.url) ||
          (script.module && e.name === 'v8.evaluateModule'),
      )
    : [];

  return {
    busyMs: durations.reduce((sum, ms) => sum + ms, 0),
    cpuMs: tasks.reduce((sum, task) => sum + task.tdur, 0) / 1000,
    blockingMs: long.reduce((sum, ms) => sum + ms - LONG_TASK_MS, 0),
    longTasks: long.length,
    longestMs: Math.max(0, ...durations),
    scriptMs: unionMs(scriptEvents.map((e) => ({ ts: e.ts, dur: e.dur ?? 0 }))),
  };
}

type Task = { ts: number; dur: number; tdur: number };

/** The RunTask events that are not nested in another, in time order. */
function topLevelTasks(onThread: TraceEvent[]): Task[] {
  const tasks: Task[] = [];
  let end = -Infinity;
  for (const task of onThread.filter((e) => e.name === 'RunTask').sort((a, b) => a.ts - b.ts)) {
    if (task.ts < end) continue; // nested in the previous top-level task
    tasks.push({ ts: task.ts, dur: task.dur ?? 0, tdur: task.tdur ?? 0 });
    end = task.ts + (task.dur ?? 0);
  }
  return tasks;
}

export type WindowWork = {
  /** The label given to `console.timeStamp` at the window's start. */
  label: string;
  /** Wall time of the top-level tasks that started in the window, ms. */
  wallMs: number;
  /** Their thread (CPU) time, ms: less what the thread spent descheduled on a busy machine. */
  cpuMs: number;
};

/**
 * Main-thread work between consecutive `console.timeStamp(label)` calls of one page: each
 * window runs from its stamp to the next, and the last stamp only closes the one before it.
 */
export function workBetweenStamps(trace: Buffer): WindowWork[] {
  const events = parse(trace);
  const stamps = events.filter((e) => e.name === 'TimeStamp' && e.args?.data?.message !== undefined).sort((a, b) => a.ts - b.ts);
  const first = stamps[0];
  if (!first) throw new Error('no console.timeStamp in the trace');
  const tasks = topLevelTasks(events.filter((e) => e.pid === first.pid && e.tid === first.tid && e.ph === 'X' && e.dur !== undefined));
  return stamps.slice(0, -1).map((stamp, i) => {
    const inside = tasks.filter((task) => task.ts >= stamp.ts && task.ts < stamps[i + 1]!.ts);
    return {
      label: stamp.args!.data!.message!,
      wallMs: inside.reduce((sum, task) => sum + task.dur, 0) / 1000,
      cpuMs: inside.reduce((sum, task) => sum + task.tdur, 0) / 1000,
    };
  });
}
