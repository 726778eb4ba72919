import { isObject } from '../mutantKit.js';
import { parse, pathOf, type Fault, type ProxyResponse } from '../mutantProxy.js';

/**
 * Splice Scan's factories as its handlers answer. The transfer factory
 * (HttpTokenStandardTransferInstructionHandler.getTransferFactory) decodes choiceArguments as a
 * TransferFactory_Transfer and parses the receiver as a party, and reads nothing else of the
 * transfer: a negative amount, an instrument it does not administer or a large meta get the
 * factory and its context (200). Its allocation factories (HttpTokenStandardAllocationInstructionHandler
 * .getAllocationFactory, v1 and v2) read no argument at all: whatever they are given, the same
 * factory; its settlement factory decodes the arguments with Java's codegen (any text is a party or
 * a contract id) and answers its factory. The Daml choice refuses such arguments when the wallet
 * submits it.
 *
 * The rewrite asks the reference for the transfer with its amount, instrument and meta set to ones
 * it accepts, and answers an allocation or settlement factory request the reference refused with the factory it
 * last answered on that path, so the answers are the ones Splice gives.
 */
const TRANSFER_FACTORY = '/registry/transfer-instruction/v1/transfer-factory';
const ALLOCATION_FACTORY = /^\/registry\/(allocation-instruction\/v[12]\/allocation-factory|allocation\/v2\/settlement-factory)$/;

export function unvalidatedFactoryArguments(): Fault {
  const lastFactory = new Map<string, ProxyResponse>();
  return {
    request(req) {
      if (req.method !== 'POST' || pathOf(req.url) !== TRANSFER_FACTORY) return req;
      const body = parse(req.body);
      const args = isObject(body) && isObject(body.choiceArguments) ? body.choiceArguments : undefined;
      const t = args && isObject(args.transfer) ? args.transfer : undefined;
      if (body === undefined || !isObject(body) || args === undefined || t === undefined || !isObject(t.instrumentId)) return req;
      const amount = typeof t.amount === 'string' && /^-\d+(\.\d+)?$/.test(t.amount) ? t.amount.slice(1) : t.amount;
      const transfer = { ...t, amount, instrumentId: { ...t.instrumentId, id: 'Amulet' }, meta: { values: {} } };
      return { ...req, body: JSON.stringify({ ...body, choiceArguments: { ...args, transfer } }) };
    },
    response(req, res) {
      const path = pathOf(req.url);
      if (req.method !== 'POST' || !ALLOCATION_FACTORY.test(path)) return res;
      if (res.status === 200) lastFactory.set(path, res);
      // A request with choiceArguments the reference refused: Splice reads none of them.
      const body = parse(req.body);
      return res.status === 400 && isObject(body) && isObject(body.choiceArguments) ? (lastFactory.get(path) ?? res) : res;
    },
  };
}
