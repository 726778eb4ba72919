import { pathOf, type Fault } from '../mutantProxy.js';

/**
 * A registry that pages nothing: Splice Scan's token-metadata handler
 * (HttpTokenStandardMetadataHandler.listInstruments) takes pageSize and pageToken and answers its
 * one instrument whatever they are, so `?pageSize=-1` is a 200 with the whole list. The standard's
 * pageSize has no minimum (token-metadata-v1.yaml: int32, default 25), and a registry with fewer
 * instruments than a page need not read it.
 */
export const ignoredInstrumentPageSize: Fault = {
  request: (req) => (req.method === 'GET' && pathOf(req.url) === '/registry/metadata/v1/instruments' ? { ...req, url: pathOf(req.url) } : req),
};
