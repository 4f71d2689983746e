// The small HTTP layer every endpoint is written against.
export interface Request {
  body: any;
  headers: Record<string, string>;
}

export interface Response {
  status(code: number): Response;
  json(body: unknown): void;
  end(): void;
}

export type Handler = (req: Request, res: Response) => Promise<void>;

export interface Router {
  get(path: string, h: Handler): void;
  post(path: string, h: Handler): void;
}
