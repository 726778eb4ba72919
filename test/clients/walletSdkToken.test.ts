import { describe } from 'vitest';
import { startKoaTarget } from './support/koaTarget.js';
import { startMswTarget } from './support/mswTarget.js';
import { describeWalletSdk } from './support/walletSdkSuite.js';

describe('against the Koa reference server', () => describeWalletSdk(startKoaTarget));
describe('against the msw handlers', () => describeWalletSdk(startMswTarget));
