import type { DamlValue, JsInterfaceView, JsStatus } from './wire.js';

/**
 * Interface views of uploaded packages on reads and streams (issue 30, "never block"): rendering
 * stays synchronous, and leaves each engine view as a pending view, queued here; whoever writes
 * the answer (handleRoute for JSON bodies, the array and WebSocket writers for streams) awaits
 * `settleViews()` first, which evaluates the queued views in slices that yield to the event loop.
 *
 * A pending view is always safe to read: its `viewStatus` and `viewValue` are getters that
 * compute the view at once (synchronously, as before) when read before it settled, so a caller
 * that never settles (a test reading the ledger directly) sees the same answer, only later.
 */
export interface ViewOutcome {
  readonly viewStatus: JsStatus;
  readonly viewValue?: DamlValue;
}

interface Task {
  readonly seq: number;
  readonly view: JsInterfaceView;
  readonly now: () => ViewOutcome;
  readonly sliced: () => Promise<ViewOutcome>;
  done: boolean;
  running: Promise<void> | undefined;
}

/** Views rendered and not yet settled, oldest first. Bounded: past it the oldest are left to their getters. */
const queue: Task[] = [];
const MAX_QUEUED = 10_000;
/** Views evaluating in slices now. */
const running = new Set<Task>();
/** Pending views made so far (the next one's sequence number). */
let made = 0;
/** Set while a read renders what nobody will write (a count): its views are not queued. */
let discarding = 0;

function settleWith(task: Task, outcome: ViewOutcome): void {
  if (task.done) return;
  task.done = true;
  // Data properties in the same key order (interfaceId, viewStatus, viewValue); a failed view has no value.
  Object.defineProperty(task.view, 'viewStatus', { value: outcome.viewStatus, enumerable: true, writable: true, configurable: true });
  if (outcome.viewValue === undefined) delete task.view.viewValue;
  else Object.defineProperty(task.view, 'viewValue', { value: outcome.viewValue, enumerable: true, writable: true, configurable: true });
}

/**
 * A view to compute later: `sliced` in slices when settled, `now` (synchronously) if read before.
 * Either must not throw: a failed view is an outcome with its status.
 */
export function pendingView(interfaceId: string, now: () => ViewOutcome, sliced: () => Promise<ViewOutcome>): JsInterfaceView {
  const view = { interfaceId } as JsInterfaceView;
  const task: Task = { seq: made++, view, now, sliced, done: false, running: undefined };
  const read = (): void => settleWith(task, task.now());
  Object.defineProperty(view, 'viewStatus', { enumerable: true, configurable: true, get: () => { read(); return view.viewStatus; } });
  Object.defineProperty(view, 'viewValue', { enumerable: true, configurable: true, get: () => { read(); return view.viewValue; } });
  if (discarding === 0) {
    queue.push(task);
    if (queue.length > MAX_QUEUED) queue.shift();
  }
  return view;
}

/**
 * A mark to settle from: the views rendered after it are those of the work done since (a request's
 * handler, the pull of a stream's next element), give or take another's rendered meanwhile.
 */
export function viewMark(): number {
  return made;
}

/**
 * Settles the views rendered since `mark` (queued, or already evaluating for another writer):
 * each evaluates in slices, taking turns with other engine work, so the event loop serves others
 * meanwhile. Resolves when all of them are settled; never rejects. Nothing rendered since: no wait.
 */
export async function settleViews(mark = 0): Promise<void> {
  if (made === mark) return;
  const kept: Task[] = [];
  for (const task of queue.splice(0)) {
    if (task.seq < mark) kept.push(task);
    else if (!task.done && task.running === undefined) start(task);
  }
  queue.unshift(...kept);
  const waiting = [...running].filter((t) => t.seq >= mark).map((t) => t.running);
  if (waiting.length > 0) await Promise.all(waiting);
}

function start(task: Task): void {
  running.add(task);
  task.running = task.sliced().then(
    (outcome) => settleWith(task, outcome),
    // `sliced` answers failures as outcomes; anything thrown anyway is read synchronously.
    () => settleWith(task, task.now()),
  ).finally(() => running.delete(task));
}

/** Runs `render` (synchronous) leaving no view of what it renders queued: for reads that are only counted. */
export function withoutQueuedViews<T>(render: () => T): T {
  discarding++;
  try {
    return render();
  } finally {
    discarding--;
  }
}

/**
 * For a writer that pulls elements one by one (a streamed array, a WebSocket channel): `settle()`
 * after each pull settles the views that pull rendered, before the element is written.
 */
export class ViewSettler {
  #mark = made;

  /** Whether the last pull rendered views to settle. */
  due(): boolean {
    return made !== this.#mark;
  }

  /** After the writer paused (others ran): what they rendered meanwhile is theirs to settle. */
  skip(): void {
    this.#mark = made;
  }

  async settle(): Promise<void> {
    if (made !== this.#mark) await settleViews(this.#mark);
    this.#mark = made;
  }
}
