import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CODE_ALPHABET, checkCharacter, groupCode, hashGiftCode, newGiftCode, parseGiftCode, sealGiftCode, unsealGiftCode } from './codes';

const body = fc.array(fc.constantFrom(...CODE_ALPHABET), { minLength: 15, maxLength: 15 }).map((chars) => chars.join(''));

describe('gift codes', () => {
  it('are 16 characters of the unambiguous alphabet, grouped by four, and pass their own check', () => {
    for (let i = 0; i < 200; i++) {
      const code = newGiftCode();
      expect(code).toMatch(/^[23456789ABCDEFGHJKMNPQRSTVWXYZ]{16}$/);
      expect(groupCode(code)).toMatch(/^(\w{4}-){3}\w{4}$/);
      expect(parseGiftCode(groupCode(code))).toEqual({ ok: true, code });
    }
  });

  it('are read whatever the case, spaces and dashes', () => {
    const code = newGiftCode();
    for (const typed of [code.toLowerCase(), ` ${groupCode(code)} `, groupCode(code).replace(/-/g, ' '), groupCode(code).toLowerCase()]) {
      expect(parseGiftCode(typed)).toEqual({ ok: true, code });
    }
  });

  it('catch every single mistyped character before any lookup', () => {
    fc.assert(
      fc.property(body, fc.nat(15), fc.nat(CODE_ALPHABET.length - 2), (b, position, shift) => {
        fc.pre(checkCharacter(b) !== null);
        const code = b + checkCharacter(b);
        const original = CODE_ALPHABET.indexOf(code[position]!);
        const replaced = CODE_ALPHABET[(original + 1 + shift) % CODE_ALPHABET.length]!;
        const typo = code.slice(0, position) + replaced + code.slice(position + 1);
        const parsed = parseGiftCode(typo);
        expect(parsed.ok).toBe(false);
        if (!parsed.ok) expect(parsed.message).toContain('mal saisi ou inversé');
      }),
      { numRuns: 2000 },
    );
  });

  it('catch every swap of two different neighbours', () => {
    fc.assert(
      fc.property(body, fc.nat(14), (b, position) => {
        fc.pre(checkCharacter(b) !== null);
        const code = b + checkCharacter(b);
        fc.pre(code[position] !== code[position + 1]);
        const swapped = code.slice(0, position) + code[position + 1] + code[position] + code.slice(position + 2);
        expect(parseGiftCode(swapped).ok).toBe(false);
      }),
      { numRuns: 2000 },
    );
  });

  it('catch, exhaustively for 300 codes, every one of their 464 single substitutions and 15 neighbour swaps', () => {
    let tried = 0;
    for (let n = 0; n < 300; n++) {
      const code = newGiftCode();
      for (let position = 0; position < code.length; position++) {
        for (const other of CODE_ALPHABET) {
          if (other === code[position]) continue;
          expect(parseGiftCode(code.slice(0, position) + other + code.slice(position + 1)).ok).toBe(false);
          tried++;
        }
        if (position < code.length - 1 && code[position] !== code[position + 1]) {
          expect(parseGiftCode(code.slice(0, position) + code[position + 1] + code[position] + code.slice(position + 2)).ok).toBe(false);
        }
      }
    }
    expect(tried).toBe(300 * 16 * 29);
  });

  it('name the look-alike characters that never appear, each of them, in either case', () => {
    const code = newGiftCode();
    for (const wrong of ['0', 'O', 'o', '1', 'I', 'i', 'L', 'l', 'U', 'u']) {
      expect(parseGiftCode(wrong + code.slice(1))).toEqual({
        ok: false,
        message: expect.stringContaining('n’existe pas dans nos codes cadeaux (0, O, 1, I, L ou U)'),
      });
    }
  });

  it('say which characters never appear, and when the length is wrong', () => {
    const zero = parseGiftCode('K7MX-4QPD-9TRW-2HN0');
    expect(zero).toMatchObject({ ok: false, message: expect.stringContaining('(0, O, 1, I, L ou U)') });
    expect(parseGiftCode('K7MX-4QPD')).toMatchObject({ ok: false, message: expect.stringContaining('celui-ci en compte 8') });
    expect(parseGiftCode('')).toMatchObject({ ok: false });
    expect(parseGiftCode('K7MX-4QPD-9TRW-2HN!')).toMatchObject({ ok: false, message: expect.stringContaining('que des lettres et des chiffres') });
  });

  it('are stored as a keyed hash and a sealed copy, neither of which shows the code', () => {
    const code = newGiftCode();
    const hash = hashGiftCode(code);
    const sealed = sealGiftCode(code);
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hash).toBe(hashGiftCode(code));
    // Keyed: a plain digest of a guessed code does not find it in a copy of the table.
    expect(hash).not.toBe(createHash('sha256').update(code).digest('hex'));
    expect(hashGiftCode(newGiftCode())).not.toBe(hash);
    expect(sealed).not.toContain(code);
    expect(sealGiftCode(code)).not.toBe(sealed);
    expect(unsealGiftCode(sealed)).toBe(code);
    // One bit of the ciphertext flipped (in the bytes: a base64 character's unused low bits
    // could leave the bytes unchanged): the authentication refuses it.
    const [version, iv, tag, data] = sealed.split('.');
    const bytes = Buffer.from(data!, 'base64url');
    bytes[0] = bytes[0]! ^ 1;
    expect(() => unsealGiftCode([version, iv, tag, bytes.toString('base64url')].join('.'))).toThrow();
  });
});
