import { isObject } from '../mutantKit.js';
import { parse, pathOf, type Fault } from '../mutantProxy.js';

/**
 * Splice Scan's transfer factory as its handler answers (HttpTokenStandardTransferInstructionHandler
 * .getTransferFactory): it decodes choiceArguments as a TransferFactory_Transfer and parses the
 * receiver as a party, and reads nothing else of the transfer. A negative amount, an instrument
 * it does not administer or a large meta get the factory and its context (200); the Daml choice
 * refuses them when the wallet submits it. The rewrite asks the reference with the transfer's
 * amount, instrument and meta set to ones it accepts, so the answer is the one Splice gives.
 * KNOWN FALSE FAILURE (not yet fixed): registry.transfer-factory.bad-input-400 requires 400.
 */
const FACTORY = '/registry/transfer-instruction/v1/transfer-factory';

export const unvalidatedFactoryArguments: Fault = {
  request(req) {
    if (req.method !== 'POST' || pathOf(req.url) !== FACTORY) return req;
    const body = parse(req.body);
    const args = isObject(body) && isObject(body.choiceArguments) ? body.choiceArguments : undefined;
    const t = args && isObject(args.transfer) ? args.transfer : undefined;
    if (body === undefined || !isObject(body) || args === undefined || t === undefined || !isObject(t.instrumentId)) return req;
    const amount = typeof t.amount === 'string' && /^-\d+(\.\d+)?$/.test(t.amount) ? t.amount.slice(1) : t.amount;
    const transfer = { ...t, amount, instrumentId: { ...t.instrumentId, id: 'Amulet' }, meta: { values: {} } };
    return { ...req, body: JSON.stringify({ ...body, choiceArguments: { ...args, transfer } }) };
  },
};
