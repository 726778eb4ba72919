import type { Slicing } from '../../../../daml-engine/eval/Evaluator.js';

/** Evaluation steps between two yields of an engine run (a few milliseconds of work). */
export const ENGINE_SLICE_STEPS = 2_500;

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
