import { describe, expect, it } from 'vitest';
import { auditActor, redact } from '../../lib/audit.js';

describe('audit redaction', () => {
  it('blanks exactly the secret keys, and keeps hashes, signatures and codes that are data', () => {
    const out = redact({
      password: 'x', passwordHash: 'h', token: 't', tokenHash: 'th', nested: [{ newPassword: 'n', apiKey: 'k' }],
      txSignature: '5Kd…', seedHash: 'abc', serverSeedHash: 'def', code: 'USD', currencyCode: 'EUR', promoCode: 'WELCOME', passwordChangedAt: new Date(0),
    }) as Record<string, unknown>;
    expect(out).toMatchObject({
      password: '[redacted]', passwordHash: '[redacted]', token: '[redacted]', tokenHash: '[redacted]', nested: [{ newPassword: '[redacted]', apiKey: '[redacted]' }],
      txSignature: '5Kd…', seedHash: 'abc', serverSeedHash: 'def', code: 'USD', currencyCode: 'EUR', promoCode: 'WELCOME', passwordChangedAt: '1970-01-01T00:00:00.000Z',
    });
  });

  it('says which kind of actor wrote an entry', () => {
    expect(auditActor({ kind: 'platform', ip: '10.0.0.1' })).toEqual({ actorKind: 'platform', adminId: null, adminEmail: 'platform', ip: '10.0.0.1' });
    expect(auditActor({ kind: 'system', job: 'gtd-expiry' })).toMatchObject({ actorKind: 'system', adminId: null, adminEmail: 'system:gtd-expiry' });
  });
});
