import { describe } from 'vitest';
import { describeClientSuite } from './support/clientSuite.js';
import { startMswTarget } from './support/mswTarget.js';

describe('the published @canton-network clients against the msw handlers', () => {
  describeClientSuite(startMswTarget);
});
