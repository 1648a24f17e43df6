import crypto from 'node:crypto';
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
  /**
   * The user's token version when it was issued (users.token_version). Access control refuses a
   * token whose version is not the user's current one, so ending sessions takes effect at once.
   */
  ver?: number;
}

/** What a verified token says, with its unique id and its expiry. */
export interface VerifiedClaims extends TokenClaims {
  /** Unique per token (single-use tokens are spent by this id). */
  jti?: string;
  /** Expiry in seconds since the epoch; every accepted token has one. */
  exp: number;
}

/** Verified access tokens a process keeps (each a few hundred bytes); the oldest go first. */
const VERIFIED_MAX = 10_000;

export class TokenSigner {
  /** The secret imported once: jose would import a raw Uint8Array again on every call. */
  private readonly key: crypto.KeyObject;
  /**
   * Access tokens whose signature and claims were verified, by the token's exact text, until
   * they expire. A signed token's claims cannot change, so verifying it again says the same
   * until its expiry; the per-request check that can change (the user's token version, status
   * and role: signing out, suspension) is not cached here but in access.ts/active-users.ts, so
   * revocation stays immediate. Saves the HMAC and the claims checks on every request.
   */
  private readonly verified = new Map<string, VerifiedClaims>();

  constructor(secret: Uint8Array) {
    this.key = crypto.createSecretKey(secret);
  }

  async sign(claims: TokenClaims, ttlSeconds: number): Promise<string> {
    const jwt = new SignJWT({
      purpose: claims.purpose,
      ...(claims.scope ? { scope: claims.scope } : {}),
      ...(claims.ver !== undefined ? { ver: claims.ver } : {}),
    })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(claims.sub)
      .setJti(crypto.randomUUID())
      .setIssuedAt()
      .setIssuer('econagents')
      .setExpirationTime(Math.floor(Date.now() / 1000) + ttlSeconds);
    return jwt.sign(this.key);
  }

  /**
   * Returns the claims, or undefined for a bad, expired or wrong-purpose token, and for one
   * without an expiry (a token that never expires is never accepted).
   */
  async verify(token: string, purpose: TokenPurpose): Promise<VerifiedClaims | undefined> {
    if (purpose === 'access') {
      const known = this.verified.get(token);
      if (known) {
        // jose's rule: expired once the current second reaches `exp`.
        if (Math.floor(Date.now() / 1000) < known.exp) return known;
        this.verified.delete(token);
      }
    }
    const claims = await this.verifyAnew(token, purpose);
    if (claims && purpose === 'access') {
      if (this.verified.size >= VERIFIED_MAX) {
        this.verified.delete(this.verified.keys().next().value as string);
      }
      // Frozen: every request admitted with this token is handed the same object.
      this.verified.set(token, Object.freeze(claims));
    }
    return claims;
  }

  private async verifyAnew(
    token: string,
    purpose: TokenPurpose,
  ): Promise<VerifiedClaims | undefined> {
    try {
      const { payload } = await jwtVerify(token, this.key, {
        issuer: 'econagents',
        algorithms: ['HS256'],
        requiredClaims: ['exp'],
      });
      if (payload.purpose !== purpose || typeof payload.sub !== 'string') return undefined;
      if (typeof payload.exp !== 'number') return undefined;
      return {
        sub: payload.sub,
        purpose,
        exp: payload.exp,
        ...(typeof payload.scope === 'string' ? { scope: payload.scope } : {}),
        ...(Number.isInteger(payload.ver) ? { ver: payload.ver as number } : {}),
        ...(typeof payload.jti === 'string' ? { jti: payload.jti } : {}),
      };
    } catch (err) {
      if (err instanceof joseErrors.JOSEError) return undefined;
      throw err;
    }
  }
}
