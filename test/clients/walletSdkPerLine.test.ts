import { describe } from 'vitest';
import { startKoaTarget } from './support/koaTarget.js';
import { quietSdkLogs } from './support/quietSdkLogs.js';
import { describeWalletSdk } from './support/walletSdkSuite.js';

quietSdkLogs();

/** The wallet SDK's token flows on the reference serving each line (3.5, the default, in walletSdkToken.test.ts). */
describe('against the Koa reference server serving Canton 3.4', () => describeWalletSdk(() => startKoaTarget('3.4')));
describe('against the Koa reference server serving Canton 3.6', () => describeWalletSdk(() => startKoaTarget('3.6'), '3.6'));
