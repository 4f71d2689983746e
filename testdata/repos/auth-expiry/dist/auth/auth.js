"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.AuthError = exports.TOKEN_EXPIRY_LEEWAY = void 0;
exports.extractBearerToken = extractBearerToken;
exports.isTokenExpired = isTokenExpired;
exports.authenticate = authenticate;
exports.requireAuth = requireAuth;
const jwt_utils_1 = require("../lib/jwt-utils");
const session_manager_1 = require("../session/session-manager");
const config_1 = require("../config");
/** Seconds of clock skew tolerated before an access token counts as expired. */
exports.TOKEN_EXPIRY_LEEWAY = 30;
class AuthError extends Error {
    constructor(message, status = 401) {
        super(message);
        this.status = status;
        this.name = 'AuthError';
    }
}
exports.AuthError = AuthError;
function extractBearerToken(req) {
    const header = req.headers.authorization;
    if (!header) {
        return undefined;
    }
    const [scheme, token] = header.split(' ');
    return (scheme === null || scheme === void 0 ? void 0 : scheme.toLowerCase()) === 'bearer' && token ? token : undefined;
}
function isTokenExpired(claims, now = Date.now()) {
    return claims.exp + exports.TOKEN_EXPIRY_LEEWAY < now;
}
async function renewExpiredToken(claims, res) {
    if (!claims.sid) {
        throw new AuthError('access token expired');
    }
    const renewed = await (0, session_manager_1.refreshSession)(claims.sid);
    if (!renewed) {
        throw new AuthError('session expired, please log in again');
    }
    res.setHeader('X-Access-Token', renewed.jwt);
    return (0, jwt_utils_1.verifyJwt)(renewed.jwt, config_1.config.jwtSecret);
}
async function authenticate(req, res, next) {
    const token = extractBearerToken(req);
    if (!token) {
        return next(new AuthError('missing bearer token'));
    }
    try {
        let claims = (0, jwt_utils_1.verifyJwt)(token, config_1.config.jwtSecret);
        if (isTokenExpired(claims)) {
            claims = await renewExpiredToken(claims, res);
        }
        req.auth = { userId: claims.sub, sessionId: claims.sid, claims };
        next();
    }
    catch (err) {
        if (err instanceof AuthError) {
            return next(err);
        }
        if (err instanceof jwt_utils_1.JwtError) {
            return next(new AuthError(`invalid token: ${err.message}`));
        }
        next(err);
    }
}
function requireAuth(req) {
    if (!req.auth) {
        throw new AuthError('not authenticated');
    }
    return { userId: req.auth.userId };
}
//# sourceMappingURL=auth.js.map
