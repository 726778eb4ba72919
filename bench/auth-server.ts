/**
 * The reference server for the token-verification benchmark, in its own process: `none`, `hs256`
 * or `es256` with the TEST-ONLY fixture keys, or `es256-nocache` (every request verifies the
 * signature: what the verified-token cache saves). Reports its URL over IPC, exits on request.
 */
import { createAuthenticator } from '../reference-server/src/http/api/auth/authConfig.js';
import { createJwtAuthenticator, DEFAULT_SCOPE } from '../reference-server/src/http/api/auth/jwtAuthenticator.js';
import { loadVerificationKey } from '../reference-server/src/http/api/auth/authConfig.js';
import { silentLogger } from '../reference-server/src/http/api/consoleLogger.js';
import { createLedger } from '../reference-server/src/ledger/index.js';
import { createReferenceServer } from '../reference-server/src/server.js';
import { fixtureKeyPath } from '../conformance/src/cli/fixtureKeyPath.js';
import { readFileSync } from 'node:fs';
import type { ServerMessage } from './servers/protocol.js';

const mode = process.argv[2] ?? 'none';
const ledger = createLedger();
const context = { participantId: ledger.config.participantId };
const authenticator =
  mode === 'hs256'
    ? await createAuthenticator({ mode: 'hs256', key: { kind: 'secret', secret: readFileSync(fixtureKeyPath('hs256.secret'), 'utf8') } }, context)
    : mode === 'es256'
      ? await createAuthenticator({ mode: 'es256', key: { kind: 'public-key-file', path: fixtureKeyPath('es256-public.pem') } }, context)
      : mode === 'es256-nocache'
        ? createJwtAuthenticator({
            algorithm: 'ES256',
            key: await loadVerificationKey('ES256', { kind: 'public-key-file', path: fixtureKeyPath('es256-public.pem') }),
            target: { kind: 'scope', scope: DEFAULT_SCOPE },
            cache: false,
          })
        : await createAuthenticator({ mode: 'none' }, context);
const server = await createReferenceServer({ port: 0, log: silentLogger, ledger, authenticator });
process.send?.({ kind: 'ready', url: server.url } satisfies ServerMessage);
process.on('message', (m: { cmd?: string }) => {
  if (m.cmd === 'exit') void server.close().then(() => process.exit(0));
});
