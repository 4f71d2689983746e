import type { Request, Response } from 'express';
import { throttle, TokenBucket } from './throttle';

function fakeRequest(ip: string): Request {
  return { ip, socket: { remoteAddress: ip } } as unknown as Request;
}

function fakeResponse() {
  const res = {
    statusCode: 200,
    headers: {} as Record<string, string>,
    body: undefined as unknown,
    setHeader(name: string, value: string) {
      res.headers[name] = value;
    },
    status(code: number) {
      res.statusCode = code;
      return res;
    },
    json(body: unknown) {
      res.body = body;
      return res;
    },
  };
  return res;
}

describe('TokenBucket', () => {
  it('refills over time up to its capacity', () => {
    const bucket = new TokenBucket(2, 1 / 1000, 0);
    expect(bucket.tryTake(0)).toBe(true);
    expect(bucket.tryTake(0)).toBe(true);
    expect(bucket.tryTake(0)).toBe(false);
    expect(bucket.msUntilNext(0)).toBe(1000);
    expect(bucket.tryTake(1000)).toBe(true);
    expect(bucket.isFull(60_000)).toBe(true);
  });
});

describe('throttle', () => {
  let clock = 0;
  const now = () => clock;

  beforeEach(() => {
    clock = 0;
  });

  it('lets requests through until the client bucket is empty, then answers 429', () => {
    const middleware = throttle({ requestsPerWindow: 3, windowMs: 60_000, now });
    const next = jest.fn();
    for (let i = 0; i < 3; i++) {
      middleware(fakeRequest('10.0.0.1'), fakeResponse() as unknown as Response, next);
    }
    expect(next).toHaveBeenCalledTimes(3);

    const res = fakeResponse();
    middleware(fakeRequest('10.0.0.1'), res as unknown as Response, next);
    expect(next).toHaveBeenCalledTimes(3);
    expect(res.statusCode).toBe(429);
    expect(res.headers['Retry-After']).toBe('20');
  });

  it('tracks each client IP separately', () => {
    const middleware = throttle({ requestsPerWindow: 1, windowMs: 1_000, now });
    const next = jest.fn();
    middleware(fakeRequest('10.0.0.1'), fakeResponse() as unknown as Response, next);
    middleware(fakeRequest('10.0.0.2'), fakeResponse() as unknown as Response, next);
    expect(next).toHaveBeenCalledTimes(2);
  });

  it('allows the client again once the window has passed', () => {
    const middleware = throttle({ requestsPerWindow: 1, windowMs: 1_000, now });
    const next = jest.fn();
    middleware(fakeRequest('10.0.0.1'), fakeResponse() as unknown as Response, next);
    clock = 1_000;
    middleware(fakeRequest('10.0.0.1'), fakeResponse() as unknown as Response, next);
    expect(next).toHaveBeenCalledTimes(2);
  });

  it('rejects invalid options', () => {
    expect(() => throttle({ requestsPerWindow: 0, windowMs: 1_000 })).toThrow();
  });
});
