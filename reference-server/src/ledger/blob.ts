import { createHmac, timingSafeEqual } from 'node:crypto';
import type { StoredContract } from '../store/StoredContract.js';
import { canonicalJson } from './values.js';
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

/**
 * Blobs of committed contracts, by contract: everything a blob holds is fixed once the create
 * commits (`createdAt` is set then), and the registry's contexts disclose the same AmuletRules and
 * round in every answer. Keyed by contract, checked against the key and the commit time.
 */
const encoded = new WeakMap<StoredContract, { readonly key: Uint8Array; readonly at: number; readonly blob: string }>();

export function encodeBlob(contract: StoredContract, key: Uint8Array): string {
  const known = encoded.get(contract);
  if (known !== undefined && known.key === key && known.at === contract.createdAt) return known.blob;
  const blob = encodeBlobOnce(contract, key);
  if (contract.createdOffset > 0) encoded.set(contract, { key, at: contract.createdAt, blob });
  return blob;
}

function encodeBlobOnce(contract: StoredContract, key: Uint8Array): string {
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


/**
 * Blobs that decoded and authenticated, per key, by their last characters (the MAC's): hashing a
 * whole blob of kilobytes for every disclosed contract of every submission cost more than the
 * look-up saves. A hit must be the same blob, character for character.
 */
const decodedByKey = new WeakMap<Uint8Array, Map<string, { readonly blob: string; readonly value: BlobPayload; canonicalArgument?: string }>>();
/** Entries kept per key (oldest dropped first); each holds one contract's payload. */
const DECODED_KEPT = 512;
/** Characters of a blob's end its entry is found by: its MAC's 32 bytes are the last 43 or 44 of base64. */
const TAIL = 64;

/**
 * `decodeBlob`, remembering blobs that decoded (the payload is shared: callers only read it) and
 * the canonical form of their argument, computed on first use.
 */
export function decodeBlobCached(blob: string, key: Uint8Array): { ok: true; value: BlobPayload; canonicalArgument: () => string } | { ok: false; reason: string } {
  let byTail = decodedByKey.get(key);
  if (byTail === undefined) decodedByKey.set(key, (byTail = new Map()));
  const tail = typeof blob === 'string' ? blob.slice(-TAIL) : undefined;
  let entry = tail === undefined ? undefined : byTail.get(tail);
  if (entry === undefined || entry.blob !== blob) {
    const decoded = decodeBlob(blob, key);
    if (!decoded.ok) return decoded;
    if (byTail.size >= DECODED_KEPT) byTail.delete(byTail.keys().next().value as string);
    entry = { blob, value: decoded.value };
    byTail.set(tail as string, entry);
  }
  const e = entry;
  return { ok: true, value: e.value, canonicalArgument: () => (e.canonicalArgument ??= canonicalJson(e.value.argument)) };
}

/** The canonical form of a stored contract's argument (immutable), computed once per contract. */
const canonicalArguments = new WeakMap<StoredContract, string>();
export function canonicalArgumentOf(contract: StoredContract): string {
  let s = canonicalArguments.get(contract);
  if (s === undefined) canonicalArguments.set(contract, (s = canonicalJson(contract.argument)));
  return s;
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
