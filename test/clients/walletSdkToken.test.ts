import { describe } from 'vitest';
import { startKoaTarget } from './support/koaTarget.js';
import { startMswTarget } from './support/mswTarget.js';
import { quietSdkLogs } from './support/quietSdkLogs.js';
import { describeWalletSdk } from './support/walletSdkSuite.js';

quietSdkLogs();

describe('against the Koa reference server', () => describeWalletSdk(startKoaTarget));
describe('against the msw handlers', () => describeWalletSdk(startMswTarget));
