import type { Slicing } from '../../../../daml-engine/eval/Evaluator.js';

/**
 * Evaluation steps between two yields of an engine run: about a millisecond of work. Each yield
 * costs the run a capture and its rest on the machine's frames; 5,000 rather than 2,500 made real
 * Amulet transfers over HTTP 1-6% faster while a request next to looping commands still waits
 * for one slice at most (bench/RESULTS.md, "slices of 5,000 steps").
 */
export const ENGINE_SLICE_STEPS = 5_000;

/**
 * One engine slice per turn of the event loop, whatever the number of runs in progress (commands,
 * interface views on reads and streams, interactive preparation): their slices take turns (first
 * come, first served), so a request arriving meanwhile waits for at most one slice, not one per run.
 */
const waitingSlices: (() => void)[] = [];
let pumping = false;
function pumpSlices(): void {
  waitingSlices.shift()?.();
  if (waitingSlices.length > 0) setImmediate(pumpSlices);
  else pumping = false;
}

export const ENGINE_SLICING: Slicing = {
  steps: ENGINE_SLICE_STEPS,
  pause: () => new Promise<void>((resolve) => {
    waitingSlices.push(resolve);
    if (!pumping) {
      pumping = true;
      setImmediate(pumpSlices);
    }
  }),
};
