import type { Fault } from '../mutantProxy.js';

/** A fixed delay before every answer (a participant farther away, or busier): nothing may depend on how fast answers come. */
export const latency = (ms: number): Fault => ({
  request: async (req) => {
    await new Promise((resolve) => setTimeout(resolve, ms));
    return req;
  },
});
