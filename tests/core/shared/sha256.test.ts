import { describe, expect, it } from 'vitest';
import { sha256Hex, utf8Bytes } from '#core/shared/sha256.ts';

describe('sha256Hex', () => {
  it('matches the FIPS 180-4 test vectors', () => {
    expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(sha256Hex('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq')).toBe(
      '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
    );
  });

  it('hashes the UTF-8 bytes of non-ASCII text', () => {
    expect(sha256Hex('héllo 😀')).toBe('a53c56966616f0ec3ed9db7ea07a6034430149528bbaba8966c284f9373669c2');
  });

  it('handles messages longer than one block', () => {
    expect(sha256Hex('x'.repeat(1000))).toBe(
      '44f8354494a5ba03ba1792a8d3e9c534c47a9181980fde7a3f44b06ef2ae7c7f',
    );
  });
});

describe('utf8Bytes', () => {
  it('encodes a lone surrogate as U+FFFD', () => {
    expect(Array.from(utf8Bytes('\ud800'))).toEqual([0xef, 0xbf, 0xbd]);
  });
});
