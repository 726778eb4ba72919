import { createHmac, timingSafeEqual } from 'node:crypto';
import type { StoredContract } from '../store/StoredContract.js';
import type { DamlRecord, DamlValue } from './wire.js';

/**
 * createdEventBlob: an opaque, versioned, tamper-evident encoding of a created event.
 * Layout: 1 byte version | UTF-8 JSON payload | 32-byte HMAC-SHA256 over version and payload,
 * keyed with the ledger's secret. Clients must treat it as opaque; we only need to recognise our
 * own blobs and refuse altered ones.
 */
const VERSION = 1;
const MAC_LENGTH = 32;

export interface BlobPayload {
  readonly contractId: string;
  readonly templateId: string;
  readonly packageName: string;
  readonly argument: DamlRecord;
  readonly signatories: readonly string[];
  readonly observers: readonly string[];
  readonly key: DamlValue | undefined;
  readonly createdAt: number;
}

function mac(key: Uint8Array, body: Buffer): Buffer {
  return createHmac('sha256', key).update(body).digest();
}

export function encodeBlob(contract: StoredContract, key: Uint8Array): string {
  const payload = {
    cid: contract.contractId,
    tid: contract.template.id,
    pkg: contract.template.packageName,
    arg: contract.argument,
    sig: contract.signatories,
    obs: contract.observers,
    ...(contract.key !== undefined ? { key: contract.key } : {}),
    at: contract.createdAt,
  };
  const body = Buffer.concat([Buffer.of(VERSION), Buffer.from(JSON.stringify(payload), 'utf8')]);
  return Buffer.concat([body, mac(key, body)]).toString('base64');
}

/** Decodes and authenticates a blob; a reason string when it is not one of ours or was altered. */
export function decodeBlob(blob: string, key: Uint8Array): { ok: true; value: BlobPayload } | { ok: false; reason: string } {
  if (typeof blob !== 'string' || blob.length === 0) return { ok: false, reason: 'createdEventBlob is empty' };
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(blob)) return { ok: false, reason: 'createdEventBlob is not base64' };
  const bytes = Buffer.from(blob, 'base64');
  if (bytes.length <= 1 + MAC_LENGTH) return { ok: false, reason: 'createdEventBlob is truncated' };
  if (bytes[0] !== VERSION) return { ok: false, reason: `createdEventBlob has unsupported version ${bytes[0]}` };
  const body = bytes.subarray(0, bytes.length - MAC_LENGTH);
  const tag = bytes.subarray(bytes.length - MAC_LENGTH);
  if (!timingSafeEqual(tag, mac(key, body))) {
    return { ok: false, reason: 'createdEventBlob failed its integrity check (altered, or issued by another ledger)' };
  }
  try {
    const p = JSON.parse(body.subarray(1).toString('utf8')) as Record<string, unknown>;
    return {
      ok: true,
      value: {
        contractId: p.cid as string,
        templateId: p.tid as string,
        packageName: p.pkg as string,
        argument: p.arg as DamlRecord,
        signatories: p.sig as string[],
        observers: p.obs as string[],
        key: p.key as DamlValue | undefined,
        createdAt: p.at as number,
      },
    };
  } catch {
    return { ok: false, reason: 'createdEventBlob payload is unreadable' };
  }
}
