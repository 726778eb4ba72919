/** The worker thread of `checkDarsAhead`: checks its share of the packages and answers whether all passed. */
import { parentPort, workerData } from 'node:worker_threads';
import { checkPart, type DarsToCheck } from './checkDarsAhead.js';

const { input, mine } = workerData as { input: DarsToCheck; mine: Set<string> };
parentPort?.postMessage(checkPart(input, mine));
