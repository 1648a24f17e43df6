import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';

/**
 * Short-lived signed tokens (HS256). `purpose` keeps an access token from being used as a
 * download token and vice versa.
 */
export type TokenPurpose = 'access' | 'download';

export interface TokenClaims {
  sub: string;
  purpose: TokenPurpose;
  /** For download tokens: the path it opens. */
  scope?: string;
}

export class TokenSigner {
  constructor(private readonly secret: Uint8Array) {}

  async sign(claims: TokenClaims, ttlSeconds: number): Promise<string> {
    const jwt = new SignJWT({
      purpose: claims.purpose,
      ...(claims.scope ? { scope: claims.scope } : {}),
    })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(claims.sub)
      .setIssuedAt()
      .setIssuer('econagents')
      .setExpirationTime(Math.floor(Date.now() / 1000) + ttlSeconds);
    return jwt.sign(this.secret);
  }

  /** Returns the claims, or undefined for a bad, expired or wrong-purpose token. */
  async verify(token: string, purpose: TokenPurpose): Promise<TokenClaims | undefined> {
    try {
      const { payload } = await jwtVerify(token, this.secret, {
        issuer: 'econagents',
        algorithms: ['HS256'],
      });
      if (payload.purpose !== purpose || typeof payload.sub !== 'string') return undefined;
      return {
        sub: payload.sub,
        purpose,
        ...(typeof payload.scope === 'string' ? { scope: payload.scope } : {}),
      };
    } catch (err) {
      if (err instanceof joseErrors.JOSEError) return undefined;
      throw err;
    }
  }
}
