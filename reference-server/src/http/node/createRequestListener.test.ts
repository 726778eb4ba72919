import { describe, expect, it } from 'vitest';
import { requestTarget } from './createRequestListener.js';

describe('requestTarget', () => {
  it('splits an origin-form target at its first question mark, keeping percent escapes', () => {
    expect(requestTarget('/v2/version')).toEqual({ path: '/v2/version', query: '' });
    expect(requestTarget('/v2/users/a%2Fb?pageSize=2&x=?')).toEqual({ path: '/v2/users/a%2Fb', query: 'pageSize=2&x=?' });
    expect(requestTarget('//v2/version?')).toEqual({ path: '//v2/version', query: '' });
  });
  it('reads other forms as Koa did, through the legacy URL parser', () => {
    expect(requestTarget('/v2/version#top')).toEqual({ path: '/v2/version', query: '' });
    expect(requestTarget('http://localhost:7575/v2/parties?filter=a')).toEqual({ path: '/v2/parties', query: 'filter=a' });
    expect(requestTarget('*')).toEqual({ path: '*', query: '' });
  });
});
