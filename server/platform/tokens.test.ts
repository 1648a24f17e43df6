import { SignJWT } from 'jose';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TokenSigner } from './tokens';

const secret = new TextEncoder().encode('k'.repeat(48));
const signer = new TokenSigner(secret);

describe('TokenSigner', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('round-trips access and download tokens with their claims', async () => {
    const access = await signer.sign({ sub: 'u1', purpose: 'access', ver: 3 }, 60);
    expect(await signer.verify(access, 'access')).toEqual({
      sub: 'u1',
      purpose: 'access',
      ver: 3,
      exp: expect.any(Number),
      jti: expect.any(String),
    });
    const download = await signer.sign({ sub: 'u1', purpose: 'download', scope: '/api/x' }, 60);
    expect(await signer.verify(download, 'download')).toEqual({
      sub: 'u1',
      purpose: 'download',
      scope: '/api/x',
      exp: expect.any(Number),
      jti: expect.any(String),
    });
  });

  it('gives every token its own id', async () => {
    const a = await signer.verify(await signer.sign({ sub: 'u', purpose: 'access' }, 60), 'access');
    const b = await signer.verify(await signer.sign({ sub: 'u', purpose: 'access' }, 60), 'access');
    expect(a?.jti).not.toBe(b?.jti);
  });

  it('refuses a token without an expiry', async () => {
    const forever = await new SignJWT({ purpose: 'access', ver: 0 })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('u')
      .setIssuer('econagents')
      .sign(secret);
    expect(await signer.verify(forever, 'access')).toBeUndefined();
  });

  it('keeps the purposes apart', async () => {
    const access = await signer.sign({ sub: 'u1', purpose: 'access' }, 60);
    const download = await signer.sign({ sub: 'u1', purpose: 'download', scope: '/x' }, 60);
    expect(await signer.verify(access, 'download')).toBeUndefined();
    expect(await signer.verify(download, 'access')).toBeUndefined();
  });

  it('refuses expired, foreign, tampered, unsigned and malformed tokens', async () => {
    expect(
      await signer.verify(await signer.sign({ sub: 'u', purpose: 'access' }, -1), 'access'),
    ).toBeUndefined();
    const foreign = await new TokenSigner(new TextEncoder().encode('z'.repeat(48))).sign(
      { sub: 'u', purpose: 'access' },
      60,
    );
    expect(await signer.verify(foreign, 'access')).toBeUndefined();
    const good = await signer.sign({ sub: 'u', purpose: 'access' }, 60);
    const [h, p, s] = good.split('.');
    const payload = JSON.parse(Buffer.from(p!, 'base64url').toString()) as Record<string, unknown>;
    const tampered = `${h}.${Buffer.from(JSON.stringify({ ...payload, sub: 'admin' })).toString('base64url')}.${s}`;
    expect(await signer.verify(tampered, 'access')).toBeUndefined();
    const none = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${p}.`;
    expect(await signer.verify(none, 'access')).toBeUndefined();
    for (const junk of ['', 'x', 'a.b.c', '...']) {
      expect(await signer.verify(junk, 'access')).toBeUndefined();
    }
    // Right secret and purpose, but another issuer or algorithm.
    const otherIssuer = await new SignJWT({ purpose: 'access' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('u')
      .setIssuer('someone-else')
      .setExpirationTime('1m')
      .sign(secret);
    expect(await signer.verify(otherIssuer, 'access')).toBeUndefined();
    const hs512 = await new SignJWT({ purpose: 'access' })
      .setProtectedHeader({ alg: 'HS512' })
      .setSubject('u')
      .setIssuer('econagents')
      .setExpirationTime('1m')
      .sign(secret);
    expect(await signer.verify(hs512, 'access')).toBeUndefined();
  });

  it('refuses a token it verified before once the token has expired', async () => {
    const token = await signer.sign({ sub: 'u', purpose: 'access' }, 60);
    const claims = await signer.verify(token, 'access');
    expect(claims?.sub).toBe('u');
    // Verified again (from the signer's cache) just before the expiry, refused at it.
    vi.useFakeTimers({ now: claims!.exp * 1000 - 1 });
    expect(await signer.verify(token, 'access')).toEqual(claims);
    vi.setSystemTime(claims!.exp * 1000);
    expect(await signer.verify(token, 'access')).toBeUndefined();
  });

  it('does not take a verified access token for a download token', async () => {
    const token = await signer.sign({ sub: 'u', purpose: 'access' }, 60);
    expect(await signer.verify(token, 'access')).toBeDefined();
    expect(await signer.verify(token, 'download')).toBeUndefined();
  });

  it('expires at the time asked for', async () => {
    const token = await signer.sign({ sub: 'u', purpose: 'access' }, 900);
    const claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as {
      iat: number;
      exp: number;
    };
    expect(claims.exp - claims.iat).toBe(900);
  });
});
