import { describe } from 'vitest';
import { describeClientSuite } from './support/clientSuite.js';
import { startKoaTarget } from './support/koaTarget.js';

describe('the published @canton-network clients against the Koa reference server', () => {
  describeClientSuite(startKoaTarget);
});
