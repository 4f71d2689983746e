import { IncomingMessage } from 'http';
import { signJwt, decodeJwt, nowInSeconds, JwtClaims } from '../lib/jwt-utils';
import { isTokenExpired, extractBearerToken, TOKEN_EXPIRY_LEEWAY } from './auth';
import { issueAccessToken, tokenExpiresAt, ACCESS_TOKEN_EXPIRY_SECONDS } from './tokens';

function claimsExpiringIn(seconds: number): JwtClaims {
  const iat = nowInSeconds();
  return { sub: 'user-1', sid: 'session-1', iat, exp: iat + seconds };
}

describe('isTokenExpired', () => {
  it('treats a freshly issued access token as valid', () => {
    expect(isTokenExpired(claimsExpiringIn(ACCESS_TOKEN_EXPIRY_SECONDS))).toBe(false);
  });

  it('reports a token whose expiry has passed as expired', () => {
    expect(isTokenExpired(claimsExpiringIn(-(TOKEN_EXPIRY_LEEWAY + 60)))).toBe(true);
  });

  it('allows a small leeway for clock skew', () => {
    expect(isTokenExpired(claimsExpiringIn(-(TOKEN_EXPIRY_LEEWAY - 5)))).toBe(false);
  });
});

describe('issueAccessToken', () => {
  it('sets exp to the configured token expiry', () => {
    const { token, expiresAt } = issueAccessToken('user-1', 'session-1');
    const { claims } = decodeJwt(token);
    expect(claims.exp).toBe(expiresAt);
    expect(expiresAt).toBe(tokenExpiresAt(claims.iat));
  });

  it('produces a token that is not expired', () => {
    const { token } = issueAccessToken('user-1', 'session-1');
    expect(isTokenExpired(decodeJwt(token).claims)).toBe(false);
  });
});

describe('extractBearerToken', () => {
  const request = (authorization?: string) => ({ headers: { authorization } }) as unknown as IncomingMessage;

  it('reads the token from a bearer header', () => {
    const jwt = signJwt(claimsExpiringIn(60), 'test-secret');
    expect(extractBearerToken(request(`Bearer ${jwt}`))).toBe(jwt);
  });

  it('ignores other auth schemes', () => {
    expect(extractBearerToken(request('Basic dXNlcjpwYXNz'))).toBeUndefined();
    expect(extractBearerToken(request())).toBeUndefined();
  });
});
